using System.Diagnostics;

namespace DiagExt.Analyzers.Tests;

/// <summary>
/// DXC0001 as users meet it: a real build by this SDK's compiler, with DiagExt.Analyzers.dll as an analyzer and an
/// .editorconfig raising the rule to an error. Fails if the SDK's compiler does not load the analyzer (CS8032: one built
/// against a newer Microsoft.CodeAnalysis than the SDK ships is skipped with a warning, which is why it is built against
/// 5.0) or does not take the severity from .editorconfig.
/// </summary>
[TestFixture]
[Category("real-programs")] // builds with the SDK's own compiler (TestKind.RealPrograms)
public class EditorConfigBuildTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(5);

    [Test]
    public void The_sdk_compiler_loads_the_analyzer_and_takes_its_severity_from_editorconfig()
    {
        string dir = Path.Combine(Path.GetTempPath(), "dxc0001-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(dir);
        try
        {
            // Empty Directory.*.props keep any enclosing repository's settings out of the probe project.
            File.WriteAllText(Path.Combine(dir, "Directory.Build.props"), "<Project />");
            File.WriteAllText(Path.Combine(dir, "Directory.Packages.props"), "<Project />");
            File.WriteAllText(Path.Combine(dir, "Probe.csproj"), $"""
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup>
                    <TargetFramework>net10.0</TargetFramework>
                    <NuGetAudit>false</NuGetAudit>
                  </PropertyGroup>
                  <ItemGroup>
                    <Analyzer Include="{typeof(CtorOrderAnalyzer).Assembly.Location}" />
                  </ItemGroup>
                </Project>
                """);
            File.WriteAllText(Path.Combine(dir, ".editorconfig"), "root = true\n\n[*.cs]\ndotnet_diagnostic.DXC0001.severity = error\n");
            File.WriteAllText(Path.Combine(dir, "C.cs"),
                "using System; using System.Reflection;\npublic static class C { public static ConstructorInfo First(Type t) => t.GetConstructors()[0]; }\n");

            (int exit, string output) = Build(dir);

            Assert.That(output, Does.Not.Contain("CS8032"), output);
            Assert.That(output, Does.Contain("error DXC0001"), output);
            Assert.That(exit, Is.Not.Zero, output);
        }
        finally
        {
            Directory.Delete(dir, recursive: true);
        }
    }

    /// <summary>dotnet build with no build servers left behind (no compiler server, no MSBuild node reuse).</summary>
    private static (int Exit, string Output) Build(string dir)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            WorkingDirectory = dir,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (string arg in new[] { "build", "-nologo", "--disable-build-servers", "-p:UseSharedCompilation=false" })
            start.ArgumentList.Add(arg);
        start.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        start.Environment["DOTNET_NOLOGO"] = "1";
        using Process process = Process.Start(start)!;
        Task<string> stdout = process.StandardOutput.ReadToEndAsync();
        Task<string> stderr = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(Timeout))
        {
            process.Kill(entireProcessTree: true);
            Assert.Fail($"dotnet build did not finish in {Timeout.TotalMinutes} minutes");
        }
        return (process.ExitCode, stdout.Result + stderr.Result);
    }
}
