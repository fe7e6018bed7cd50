using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using DiagExt.Core.Detectors.CtorOrder.Model;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// Reads the body of a lambda passed to OrderBy/First/Where to tell what it looks at: a sort key that reads
/// MetadataToken is unique per constructor (no ties); a predicate that matches exact parameter types, no
/// parameters, or a marker attribute matches at most one constructor. Anything looser (assignable from,
/// all optional, a parameter count other than zero) can match several, and then the first one wins.
/// </summary>
internal sealed class LambdaInspector(AssemblyImage image)
{
    private static readonly HashSet<string> Loose = OrderDependentPick.LooseTests;

    private static readonly HashSet<string> Attributes = OrderDependentPick.AttributeQueries;

    private readonly Dictionary<MethodDefinitionHandle, LambdaBody> _bodies = [];

    /// <summary>How deep a predicate's calls into helpers of its own assembly are followed (HasSingleParameterOfType).</summary>
    private const int HelperDepth = 2;

    /// <summary>What a lambda's IL calls and which integer constants it loads, its helpers' bodies included.</summary>
    private sealed record LambdaBody(HashSet<string> Calls, HashSet<int> Constants, bool ReadsLength, bool ComparesReferences)
    {
        /// <summary>The types its typeof expressions name (ldtoken).</summary>
        public HashSet<string> Types { get; } = [];
    }

    /// <summary>A key no two constructors share: the metadata token (declaration order).</summary>
    public bool KeyIsUnique(MethodDefinitionHandle lambda) => Read(lambda).Calls.Contains("get_" + OrderDependentPick.UniqueKey);

    /// <summary>Whether the predicate can hold for at most one constructor of a type.</summary>
    public bool SelectsAtMostOne(MethodDefinitionHandle lambda)
    {
        LambdaBody body = Read(lambda);
        HashSet<string> calls = body.Calls;
        if (calls.Overlaps(Loose))
            return false;
        if (calls.Contains(OrderDependentPick.SignatureTest) || calls.Overlaps(Attributes))
            return true;
        bool readsParameters = calls.Contains("GetParameters");
        // "p[0].ParameterType == typeof(X)" (with a count check): one signature. Before netstandard2.0 Type has no
        // op_Equality and "==" is a reference comparison, so the typeof itself, or a reference comparison, is the sign.
        if (calls.Contains("get_ParameterType") && (calls.Contains("op_Equality") || calls.Contains("Equals") || calls.Contains("GetTypeFromHandle") || body.ComparesReferences))
            return true;
        // "GetParameters().Length == 0": one parameterless constructor.
        return readsParameters && body.ReadsLength && body.Constants.All(k => k == 0) && !calls.Contains("get_ParameterType");
    }

    /// <summary>
    /// The parameter count a predicate asks for ("c.GetParameters().Length == 5"), when that is all it tests: the
    /// constructors it can match are those of that arity, which a type the code names can be counted for.
    /// </summary>
    public int? Arity(MethodDefinitionHandle lambda)
    {
        LambdaBody body = Read(lambda);
        return body.ReadsLength && body.Calls.Contains("GetParameters") && body.Constants.Count == 1 && !body.Calls.Overlaps(Loose)
            ? body.Constants.Single()
            : null;
    }

    /// <summary>
    /// Whether a helper returning bool tests that its Type argument is a Nullable&lt;T&gt;: it asks Nullable.GetUnderlyingType, or
    /// compares GetGenericTypeDefinition() with typeof(Nullable&lt;&gt;) (FastExpressionCompiler's Tools.IsNullable).
    /// </summary>
    public bool TestsNullable(MethodDefinitionHandle helper)
    {
        LambdaBody body = Read(helper);
        return body.Calls.Contains("GetUnderlyingType") || body.Calls.Contains("GetGenericTypeDefinition") && body.Types.Any(t => t.StartsWith("System.Nullable", StringComparison.Ordinal));
    }

    /// <summary>Whether a helper asks reflection whether its argument wears the attribute named <paramref name="attribute"/> (a typeof of it and an attribute lookup).</summary>
    public bool TestsForAttribute(MethodDefinitionHandle helper, string attribute)
    {
        LambdaBody body = Read(helper);
        return body.Types.Contains(attribute) && body.Calls.Overlaps(Attributes);
    }

    /// <summary>What a generic-definition helper may call: nothing that walks base types or interfaces (a type deriving from the generic passes those).</summary>
    private static readonly HashSet<string> DefinitionTestCalls = ["get_IsGenericType", "get_IsConstructedGenericType", "GetGenericTypeDefinition", "GetTypeInfo", "op_Equality", "Equals"];

    private readonly Dictionary<MethodDefinitionHandle, bool> _definitionTests = [];

    /// <summary>
    /// Whether a static helper (Type t, Type definition) tests that t is a constructed generic of definition: it compares
    /// t's GetGenericTypeDefinition() with its second argument and asks nothing else, straight through (no loop, no
    /// negation, no helper of its own).
    /// </summary>
    public bool ComparesGenericDefinition(MethodDefinitionHandle helper)
    {
        if (_definitionTests.TryGetValue(helper, out bool known))
            return known;
        bool tests = false;
        try
        {
            MethodDefinition def = image.Metadata.GetMethodDefinition(helper);
            if ((def.Attributes & System.Reflection.MethodAttributes.Static) != 0 && Signatures.Method(image.Metadata, def).ParameterTypes is ["System.Type", "System.Type"]
                && image.Body(helper) is { } il)
                tests = TestsDefinition(IlDecoder.Decode(il.GetILBytes()));
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            // Unreadable: it proves nothing.
        }
        _definitionTests[helper] = tests;
        return tests;
    }

    private const int MaxDefinitionTestLength = 32;

    private bool TestsDefinition(IlInstruction[] code)
    {
        if (code.Length > MaxDefinitionTestLength)
            return false;
        bool takesDefinition = false, comparesWithSecond = false;
        for (int i = 0; i < code.Length; i++)
        {
            IlInstruction ins = code[i];
            switch (ins.OpCode)
            {
                case ILOpCode.Call or ILOpCode.Callvirt:
                    if (MethodReference.Resolve(image.Metadata, MetadataTokens.EntityHandle(ins.Token)) is not { } called || !DefinitionTestCalls.Contains(called.Name))
                        return false;
                    takesDefinition |= called.Name == "GetGenericTypeDefinition" && i > 0 && code[i - 1].OpCode == ILOpCode.Ldarg_0;
                    break;
                case ILOpCode.Ldarg_1:
                    comparesWithSecond = true;
                    break;
                case ILOpCode.Brfalse or ILOpCode.Brfalse_s or ILOpCode.Brtrue or ILOpCode.Brtrue_s or ILOpCode.Br or ILOpCode.Br_s:
                    if (ins.IntOperand <= ins.Offset)
                        return false;
                    break;
                case ILOpCode.Ldarg_0 or ILOpCode.Ldc_i4_0 or ILOpCode.Ldc_i4_1 or ILOpCode.Ret or ILOpCode.Nop
                    or ILOpCode.Stloc_0 or ILOpCode.Ldloc_0 or ILOpCode.Dup or ILOpCode.Pop:
                    break;
                default:
                    return false;
            }
        }
        return takesDefinition && comparesWithSecond;
    }

    private LambdaBody Read(MethodDefinitionHandle lambda)
    {
        if (_bodies.TryGetValue(lambda, out LambdaBody? known))
            return known;
        var body = new LambdaBody([], [], false, false);
        try
        {
            body = Collect(lambda, body, HelperDepth, [lambda]);
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            // An unreadable lambda tells nothing: callers then assume the worst (keys can tie, predicates match several).
            body = new LambdaBody([], [], false, false);
        }
        _bodies[lambda] = body;
        return body;
    }

    /// <summary>Adds what <paramref name="method"/>'s IL does to <paramref name="body"/>, following calls into methods of this assembly.</summary>
    private LambdaBody Collect(MethodDefinitionHandle method, LambdaBody body, int depth, HashSet<MethodDefinitionHandle> visited)
    {
        if (image.Body(method) is not { } il)
            return body;
        foreach (IlInstruction ins in IlDecoder.Decode(il.GetILBytes()))
        {
            switch (ins.OpCode)
            {
                case ILOpCode.Call or ILOpCode.Callvirt:
                    if (MethodReference.Resolve(image.Metadata, MetadataTokens.EntityHandle(ins.Token)) is { } called)
                    {
                        body.Calls.Add(called.Name);
                        if (called.Name is "get_Length" or "Any" or "Count")
                            body = body with { ReadsLength = true };
                    }
                    // A predicate that hands the constructor to a helper of its own (Hyperion's HasSingleParameterOfType) is what the helper tests.
                    if (depth > 0 && LocalMethods.Resolve(image.Metadata, ins.Token) is { } helper && visited.Add(helper))
                        body = Collect(helper, body, depth - 1, visited);
                    break;
                case ILOpCode.Ldlen:
                    body = body with { ReadsLength = true };
                    break;
                case ILOpCode.Ldtoken when MetadataTokens.EntityHandle(ins.Token) is { Kind: HandleKind.TypeReference or HandleKind.TypeDefinition or HandleKind.TypeSpecification } type:
                    body.Types.Add(MetadataNames.TypeName(image.Metadata, type));
                    break;
                case ILOpCode.Ceq or ILOpCode.Beq or ILOpCode.Beq_s or ILOpCode.Bne_un or ILOpCode.Bne_un_s:
                    body = body with { ComparesReferences = true };
                    break;
                case ILOpCode.Ldc_i4 or ILOpCode.Ldc_i4_s:
                    body.Constants.Add(ins.IntOperand);
                    break;
                case >= ILOpCode.Ldc_i4_m1 and <= ILOpCode.Ldc_i4_8:
                    body.Constants.Add((int)ins.OpCode - (int)ILOpCode.Ldc_i4_0);
                    break;
            }
        }
        return body;
    }
}
