namespace DiagExt.Cli.Batch;

/// <summary>
/// How to start another diagext for one dump of a batch: the apphost beside diagext.dll, or the running
/// dotnet host with diagext.dll (a 'dotnet tool' install, or diagext run from the test host).
/// </summary>
public static class WorkerLauncher
{
    public static (string FileName, IReadOnlyList<string> Arguments) Command(IEnumerable<string> arguments)
    {
        string folder = AppContext.BaseDirectory;
        string apphost = Path.Combine(folder, OperatingSystem.IsWindows() ? "diagext.exe" : "diagext");
        if (File.Exists(apphost))
            return (apphost, arguments.ToList());
        string dll = Path.Combine(folder, "diagext.dll");
        string? host = Environment.ProcessPath;
        string hostName = Path.GetFileNameWithoutExtension(host ?? "");
        return (hostName == "dotnet" ? host! : "dotnet", arguments.Prepend(dll).ToList());
    }
}
