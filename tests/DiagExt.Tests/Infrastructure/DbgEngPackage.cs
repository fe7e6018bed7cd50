using System.Reflection;

namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// Microsoft's debugger engine from the NuGet package Microsoft.Debugging.Platform.DbgEng (restored by the
/// test project's PackageDownload): the dbgeng.dll WinDbg and cdb are built on, run here under Wine.
/// </summary>
public static class DbgEngPackage
{
    public static string Root { get; } = FindRoot();

    /// <summary>dbgeng.dll for "amd64" or "x86", with its dbghelp/dbgmodel/dbgcore beside it.</summary>
    public static string Engine(string arch) => Path.Combine(Root, "content", arch, "dbgeng.dll");

    public static string Version => Path.GetFileName(Root);

    /// <summary>The NuGet package folder the test project restored into.</summary>
    public static string PackagesRoot => typeof(DbgEngPackage).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
        .FirstOrDefault(a => a.Key == "NuGetPackageRoot")?.Value ?? "";

    private static string FindRoot()
    {
        string package = Path.Combine(PackagesRoot, "microsoft.debugging.platform.dbgeng");
        string? newest = Directory.Exists(package) ? Directory.GetDirectories(package).Max() : null;
        return newest ?? throw new InvalidOperationException($"Microsoft.Debugging.Platform.DbgEng is not restored under {package}");
    }
}
