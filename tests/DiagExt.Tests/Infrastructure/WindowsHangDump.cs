namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// One full dump of samples/Hangs (win-x64) in "monitor3" mode (a three-thread Monitor cycle plus a bystander) run
/// under Wine, written by Microsoft's engine (.dump /ma), made once per test run for every fixture that reads it:
/// each Wine run of the sample costs a minute.
/// </summary>
public static class WindowsHangDump
{
    public sealed record Made(string Path, string GroundTruth, int WindowsPid);

    private static readonly Lazy<Made> Dump = new(Make);

    public static Made Monitor3 => Dump.Value;

    private static Made Make()
    {
        string dump = System.IO.Path.Combine(Repo.WorkDirectory, "dumps", "hang-monitor3-windows.dmp");
        Directory.CreateDirectory(System.IO.Path.GetDirectoryName(dump)!);
        File.Delete(dump);
        (SampleProcess sample, int pid) = WindowsSample.Start("Hangs", TimeSpan.FromMinutes(3), ["monitor3"]);
        using (sample)
        {
            EngineHost.Session attach = EngineHost.Attach(pid, [$".dump /ma /o {WinePrefix.WindowsPath(dump)}"]);
            if (!File.Exists(dump))
                throw new InvalidOperationException($"the engine wrote no dump of Hangs monitor3:\n{attach.Raw}");
            return new Made(dump, sample.Output, pid);
        }
    }
}
