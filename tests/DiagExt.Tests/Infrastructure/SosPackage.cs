namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// Microsoft's SOS for WinDbg: the win-x64 sos.dll inside the dotnet-dump tool package (restored by the test project's
/// PackageDownload; dotnet-sos is not served here). Its native commands (!threads, !clrstack, !syncblk, !DumpObj)
/// work in dbgeng under Wine; its managed ones need SOS.Extensions.dll, which this package lacks.
/// </summary>
public static class SosPackage
{
    public const string Version = "10.0.750501";

    public static string Dll { get; } = Path.Combine(DbgEngPackage.PackagesRoot, "dotnet-dump", Version, "tools", "net8.0", "any", "win-x64", "sos.dll");
}
