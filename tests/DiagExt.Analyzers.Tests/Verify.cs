using System.Runtime.InteropServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Testing;
using Microsoft.CodeAnalysis.Testing;

namespace DiagExt.Analyzers.Tests;

/// <summary>The analyzer test framework's C# test, compiling against this runtime's assemblies (nothing downloaded).</summary>
public sealed class Verify : CSharpCodeFixTest<CtorOrderAnalyzer, CtorOrderCodeFix, DefaultVerifier>
{
    private static readonly MetadataReference[] Runtime = Directory.GetFiles(RuntimeEnvironment.GetRuntimeDirectory(), "*.dll")
        .Where(IsManaged).Select(p => (MetadataReference)MetadataReference.CreateFromFile(p)).ToArray();

    public Verify()
    {
        ReferenceAssemblies = new ReferenceAssemblies("net-runtime");
        TestState.AdditionalReferences.AddRange(Runtime);
        FixedState.AdditionalReferences.AddRange(Runtime);
    }

    /// <summary>The diagnostic at {|#location:...|}: the code it quotes, and for a type the code names how many constructors match.</summary>
    public static DiagnosticResult Diagnostic(int location, string code, string proven = "") =>
        new DiagnosticResult(CtorOrderAnalyzer.Rule).WithLocation(location).WithArguments(code, proven);

    /// <summary>Runs the analyzer on <paramref name="source"/>; {|#0:...|} marks where each expected diagnostic is.</summary>
    public static Task Analyzer(string source, params DiagnosticResult[] expected)
    {
        var test = new Verify { TestCode = source };
        test.ExpectedDiagnostics.AddRange(expected);
        return test.RunAsync();
    }

    /// <summary>Runs the analyzer and the code fix, which must turn <paramref name="source"/> into <paramref name="fixedSource"/>.</summary>
    public static Task CodeFix(string source, string fixedSource, params DiagnosticResult[] expected)
    {
        var test = new Verify { TestCode = source, FixedCode = fixedSource };
        test.ExpectedDiagnostics.AddRange(expected);
        return test.RunAsync();
    }

    private static bool IsManaged(string path)
    {
        try
        {
            using var stream = File.OpenRead(path);
            using var pe = new System.Reflection.PortableExecutable.PEReader(stream);
            return pe.HasMetadata;
        }
        catch (BadImageFormatException)
        {
            return false;
        }
    }
}
