using System.Runtime.InteropServices;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// The folder of the runtime assemblies (System.Private.CoreLib.dll, ...) whose metadata
/// <see cref="ConstructorCounter"/> reads. Framework-dependent diagext runs on them. The Native AOT build carries
/// no IL assemblies: it reads those of the .NET installed on the machine, the same version it was built with,
/// else the newest of the same major version; without one, types from outside the scanned assembly stay
/// uncounted (a call site on them is a warning, not dismissed), which is what the AOT build then reports.
/// </summary>
internal static class RuntimeAssemblyFolder
{
    private const string CoreLib = "System.Private.CoreLib.dll";

    public static string? Path { get; } = Find();

    private static string? Find()
    {
        string own = RuntimeEnvironment.GetRuntimeDirectory();
        if (HasCoreLib(own))
            return own;
        string? root = DotnetRoot();
        if (root is null)
            return null;
        string shared = System.IO.Path.Combine(root, "shared", "Microsoft.NETCore.App");
        Version version = Environment.Version;
        string exact = System.IO.Path.Combine(shared, $"{version.Major}.{version.Minor}.{version.Build}");
        if (HasCoreLib(exact))
            return exact;
        try
        {
            return Directory.EnumerateDirectories(shared)
                .Select(d => (Dir: d, Version: Version.TryParse(System.IO.Path.GetFileName(d).Split('-')[0], out Version? v) ? v : null))
                .Where(d => d.Version is { } v && v.Major == version.Major && HasCoreLib(d.Dir))
                .OrderByDescending(d => d.Version)
                .Select(d => d.Dir)
                .FirstOrDefault();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>DOTNET_ROOT, else where the 'dotnet' on PATH really is, else the usual install folders.</summary>
    private static string? DotnetRoot()
    {
        if (Environment.GetEnvironmentVariable("DOTNET_ROOT") is { Length: > 0 } set && Directory.Exists(set))
            return set;
        foreach (string dir in (Environment.GetEnvironmentVariable("PATH") ?? "").Split(System.IO.Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            string dotnet = System.IO.Path.Combine(dir, OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet");
            try
            {
                if (!File.Exists(dotnet))
                    continue;
                string real = new FileInfo(dotnet).ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? dotnet;
                return System.IO.Path.GetDirectoryName(real);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // An unreadable PATH entry: try the next.
            }
        }
        string[] usual = OperatingSystem.IsWindows()
            ? [System.IO.Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.ProgramFiles), "dotnet")]
            : ["/usr/share/dotnet", "/usr/lib/dotnet", "/usr/local/share/dotnet", "/opt/dotnet"];
        return usual.FirstOrDefault(Directory.Exists);
    }

    private static bool HasCoreLib(string? dir) => !string.IsNullOrEmpty(dir) && File.Exists(System.IO.Path.Combine(dir, CoreLib));
}
