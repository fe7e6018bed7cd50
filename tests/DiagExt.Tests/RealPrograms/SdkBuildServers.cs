using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.RealPrograms;

/// <summary>
/// The .NET SDK's own long-lived build processes, started the ordinary way: 'dotnet build' of a tiny solution with
/// node reuse and shared compilation on (the SDK's defaults; this machine's environment turns both off, so the
/// build turns them back on). They stay alive afterwards, idle, until 'dotnet build-server shutdown'.
/// </summary>
public sealed class SdkBuildServers : IDisposable
{
    private readonly HashSet<int> _before;

    private SdkBuildServers(HashSet<int> before) => _before = before;

    /// <summary>The Roslyn compiler server (VBCSCompiler) the build left running.</summary>
    public int Compiler => Newest(IsCompilerServer);

    /// <summary>A reusable MSBuild worker node ("MSBuild.dll /nodemode:1 /nodeReuse:true").</summary>
    public int MSBuildNode => Newest(IsReusableMSBuildNode);

    public static SdkBuildServers Start()
    {
        var before = Running(c => IsCompilerServer(c) || IsReusableMSBuildNode(c)).ToHashSet();
        string app = WriteSolution();
        // Independent libraries: MSBuild builds some of them on an out-of-process worker node (a single project
        // is built in the entry process and leaves no node behind). --no-incremental: compile every time, so the
        // compiler server is started even when a previous run left the outputs.
        var servers = new SdkBuildServers(before);
        // Whether MSBuild hands a project to a worker node is the scheduler's choice (on a busy machine it may build
        // everything in the entry process): build again, up to three times, until a reusable node stays behind.
        for (int attempt = 1; attempt <= 3; attempt++)
        {
            ProcessRunner.Result build = ProcessRunner.Run("dotnet",
                ["build", app, "--no-incremental", "-nodeReuse:true", "-maxCpuCount:2", "-p:UseSharedCompilation=true", "--nologo", "-v", "q"],
                TimeSpan.FromMinutes(3), environment: new Dictionary<string, string>
                {
                    ["MSBUILDDISABLENODEREUSE"] = "0",
                    ["UseSharedCompilation"] = "true",
                    ["DOTNET_CLI_USE_MSBUILD_SERVER"] = "0",
                });
            if (build.ExitCode != 0)
            {
                servers.Dispose();
                Assert.Fail($"dotnet build of the tiny solution failed:\n{build.Stdout}\n{build.Stderr}");
            }
            if (Running(IsReusableMSBuildNode).Any())
                break;
            TestContext.Progress.WriteLine($"build {attempt} of the tiny solution left no MSBuild worker node; building again");
        }
        return servers;
    }

    /// <summary>
    /// 'dotnet build-server shutdown' for these two kinds; any process this build started that is still running
    /// afterwards is killed by its pid.
    /// </summary>
    public void Dispose()
    {
        ProcessRunner.Result shutdown = ProcessRunner.Run("dotnet", ["build-server", "shutdown", "--msbuild", "--vbcscompiler"], TimeSpan.FromMinutes(1));
        TestContext.Out.WriteLine($"dotnet build-server shutdown: exit {shutdown.ExitCode}; {shutdown.Stdout.ReplaceLineEndings(" ").Trim()}");
        Thread.Sleep(1000);
        foreach (int pid in Running(c => IsCompilerServer(c) || IsReusableMSBuildNode(c)).Where(p => !_before.Contains(p)))
        {
            TestContext.Out.WriteLine($"still running after the shutdown, killed: {pid}");
            try
            {
                using var process = System.Diagnostics.Process.GetProcessById(pid);
                process.Kill();
            }
            catch (Exception e) when (e is ArgumentException or InvalidOperationException)
            {
                // gone meanwhile
            }
        }
    }

    private int Newest(Func<string[], bool> kind)
    {
        int[] started = Running(kind).Where(p => !_before.Contains(p)).ToArray();
        // One left over from an earlier run is reused by the build, so it counts too.
        int[] candidates = started.Length > 0 ? started : Running(kind).ToArray();
        Assert.That(candidates, Is.Not.Empty, "the build left no such process running");
        return candidates.Max();
    }

    private static bool IsCompilerServer(string[] argv) =>
        argv.Length > 0 && (argv[0].EndsWith("/VBCSCompiler", StringComparison.Ordinal) || argv.Any(a => a.EndsWith("/VBCSCompiler.dll", StringComparison.Ordinal)));

    // A build with node reuse off (every other build here) has nodes too, but they exit with it: not ours to touch.
    private static bool IsReusableMSBuildNode(string[] argv) =>
        argv.Any(a => a.EndsWith("MSBuild.dll", StringComparison.Ordinal)) && argv.Contains("/nodemode:1") && argv.Contains("/nodeReuse:true");

    /// <summary>Pids of live processes whose command line matches (a zombie's is empty).</summary>
    private static IEnumerable<int> Running(Func<string[], bool> kind)
    {
        foreach (string dir in Directory.GetDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(dir), out int pid))
                continue;
            string[] argv;
            try
            {
                argv = File.ReadAllText(Path.Combine(dir, "cmdline")).Split('\0', StringSplitOptions.RemoveEmptyEntries);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                continue;
            }
            if (kind(argv))
                yield return pid;
        }
    }

    /// <summary>Independent libraries: the more there are, the likelier MSBuild gives some to a worker node.</summary>
    private static readonly string[] Libraries = ["lib1", "lib2", "lib3", "lib4"];

    /// <summary>app -> lib1..lib4 under artifacts/, shut off from the repository's Directory.*.props (a plain project).</summary>
    private static string WriteSolution()
    {
        string root = Path.Combine(Repo.WorkDirectory, "realprograms", "buildservers");
        Directory.CreateDirectory(root);
        File.WriteAllText(Path.Combine(root, "Directory.Build.props"), "<Project />\n");
        File.WriteAllText(Path.Combine(root, "Directory.Build.targets"), "<Project />\n");
        File.WriteAllText(Path.Combine(root, "Directory.Packages.props"), "<Project />\n");
        foreach (string lib in Libraries)
        {
            Directory.CreateDirectory(Path.Combine(root, lib));
            File.WriteAllText(Path.Combine(root, lib, $"{lib}.csproj"), Project("Library", ""));
            File.WriteAllText(Path.Combine(root, lib, $"{lib}.cs"), $"public static class {lib.ToUpperInvariant()} {{ public static string Name => \"{lib}\"; }}\n");
        }
        Directory.CreateDirectory(Path.Combine(root, "app"));
        File.WriteAllText(Path.Combine(root, "app", "app.csproj"), Project("Exe",
            $"<ItemGroup>{string.Concat(Libraries.Select(l => $"<ProjectReference Include=\"../{l}/{l}.csproj\" />"))}</ItemGroup>"));
        File.WriteAllText(Path.Combine(root, "app", "Program.cs"), $"System.Console.WriteLine({string.Join(" + ", Libraries.Select(l => $"{l.ToUpperInvariant()}.Name"))});\n");
        return Path.Combine(root, "app", "app.csproj");
    }

    private static string Project(string outputType, string items) => $"""
        <Project Sdk="Microsoft.NET.Sdk">
          <PropertyGroup>
            <OutputType>{outputType}</OutputType>
            <TargetFramework>net10.0</TargetFramework>
            <ImplicitUsings>enable</ImplicitUsings>
            <Nullable>enable</Nullable>
          </PropertyGroup>
          {items}
        </Project>
        """;
}
