namespace DiagExt.Tests.Infrastructure;

/// <summary>Compiles the tests' small Windows programs (tests/native/*.cpp) with mingw-w64, once per test run.</summary>
public static class MingwBuild
{
    private static readonly Dictionary<string, string> Built = new();
    private static readonly object Gate = new();

    public static string Program(string source, bool x86 = false) => Build(source, x86, library: false);

    /// <summary>A 64-bit DLL (e.g. a second debugger extension) from tests/native/SOURCE.</summary>
    public static string Library(string source) => Build(source, x86: false, library: true);

    private static string Build(string source, bool x86, bool library)
    {
        lock (Gate)
        {
            string key = source + (x86 ? "|x86" : "");
            if (Built.TryGetValue(key, out string? exe))
                return exe;
            string dir = Path.Combine(Repo.WorkDirectory, "native-test-programs", x86 ? "x86" : "x64");
            Directory.CreateDirectory(dir);
            exe = Path.Combine(dir, Path.GetFileNameWithoutExtension(source) + (library ? ".dll" : ".exe"));
            string compiler = x86 ? "i686-w64-mingw32-g++" : "x86_64-w64-mingw32-g++";
            ProcessRunner.Result result = ProcessRunner.Run(compiler,
                [.. library ? new[] { "-shared" } : ["-municode"], "-O1", "-static", "-o", exe, Path.Combine(Repo.Root, "tests", "native", source), "-luuid"],
                TimeSpan.FromMinutes(3));
            if (result.ExitCode != 0)
                throw new InvalidOperationException($"{compiler} {source} failed:\n{result.Stdout}\n{result.Stderr}");
            Built[key] = exe;
            return exe;
        }
    }
}
