namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// Full dumps of samples/Hangs (win-x64) run under Wine, written by Microsoft's engine (.dump /ma), each mode's made
/// once per test run for every fixture that reads it (each Wine run of the sample costs a minute): "monitor3" (a
/// three-thread Monitor cycle plus a bystander), "criticalsection" (a Win32 critical section in a cycle with a Monitor).
/// </summary>
public static class WindowsHangDump
{
    public sealed record Made(string Path, string GroundTruth, int WindowsPid);

    private static readonly Dictionary<string, Lazy<Made>> Dumps = [];

    public static Made Monitor3 => Of("monitor3");

    public static Made Of(string mode)
    {
        Lazy<Made> made;
        lock (Dumps)
        {
            if (!Dumps.TryGetValue(mode, out made!))
                Dumps[mode] = made = new Lazy<Made>(() => Make(mode));
        }
        return made.Value;
    }

    private static Made Make(string mode)
    {
        string dump = System.IO.Path.Combine(Repo.WorkDirectory, "dumps", $"hang-{mode}-windows.dmp");
        Directory.CreateDirectory(System.IO.Path.GetDirectoryName(dump)!);
        File.Delete(dump);
        (SampleProcess sample, int pid) = WindowsSample.Start("Hangs", TimeSpan.FromMinutes(3), [mode]);
        using (sample)
        {
            EngineHost.Session attach = EngineHost.Attach(pid, [$".dump /ma /o {WinePrefix.WindowsPath(dump)}"]);
            if (!File.Exists(dump))
                throw new InvalidOperationException($"the engine wrote no dump of Hangs {mode}:\n{attach.Raw}");
            return new Made(dump, sample.Output, pid);
        }
    }
}
