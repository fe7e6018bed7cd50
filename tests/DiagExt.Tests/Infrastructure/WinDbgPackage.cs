namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// The WinDbg extension as a user gets it, built by scripts/package-windbg.sh once per test run:
/// artifacts/windbg/{x64,x86}/DiagExt.dll with diagext beside each (win-x64 self-contained, win-x86
/// framework-dependent).
/// </summary>
public static class WinDbgPackage
{
    private static readonly Lazy<string> Built = new(Build);

    /// <summary>The DiagExt folder (artifacts/windbg).</summary>
    public static string Folder => Built.Value;

    public static string Extension(string arch) => Path.Combine(Folder, arch, "DiagExt.dll");

    private static string Build()
    {
        ProcessRunner.Result result = ProcessRunner.Run("bash", [Path.Combine(Repo.Root, "scripts", "package-windbg.sh")], TimeSpan.FromMinutes(15));
        if (result.ExitCode != 0)
            throw new InvalidOperationException($"scripts/package-windbg.sh failed ({result.ExitCode}):\n{result.Stdout}\n{result.Stderr}");
        return Path.Combine(Repo.Root, "artifacts", "windbg");
    }

    /// <summary>An empty DiagExt folder of its own, for tests that lay out the extension differently.</summary>
    public static string FreshLayout(string name)
    {
        string root = Path.Combine(Repo.WorkDirectory, "windbg-layouts", name, "DiagExt");
        if (Directory.Exists(root))
            Directory.Delete(root, recursive: true);
        Directory.CreateDirectory(root);
        return root;
    }

    public static void CopyDirectory(string from, string to)
    {
        Directory.CreateDirectory(to);
        foreach (string file in Directory.GetFiles(from))
            File.Copy(file, Path.Combine(to, Path.GetFileName(file)), overwrite: true);
        foreach (string dir in Directory.GetDirectories(from))
            CopyDirectory(dir, Path.Combine(to, Path.GetFileName(dir)));
    }
}
