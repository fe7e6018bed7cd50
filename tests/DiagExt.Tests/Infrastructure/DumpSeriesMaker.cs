namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// Several createdump dumps of one running sample, seconds apart, as procdump -n or createdump's %t would name them
/// ("NAME_EPOCH.core", the time it was taken in seconds since 1970): a dump series. Made once per test run and name.
/// </summary>
public static class DumpSeriesMaker
{
    public sealed record Series(string Folder, IReadOnlyList<string> Dumps, string Output);

    private static readonly Dictionary<string, Series> Cache = new();

    /// <param name="again">Take a new series even when this run has one (a test retaking dumps DiagExt said to take again).</param>
    public static Series Of(string sample, string mode, int count, TimeSpan apart, bool again = false)
    {
        string key = $"{sample}-{mode}-{count}";
        lock (Cache)
        {
            if (!again && Cache.TryGetValue(key, out Series? cached) && cached.Dumps.All(File.Exists))
                return cached;
            string folder = WorkFolder.Fresh("series", key);
            using SampleProcess process = SampleProcess.StartAndWaitReady(SampleBuilder.Build(sample), [mode], TimeSpan.FromMinutes(2), detached: true);
            var dumps = new List<string>();
            for (int i = 0; i < count; i++)
            {
                if (i > 0)
                    Thread.Sleep(apart);
                long epoch = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
                string made = DumpMaker.Dump(process.Pid, $"{key}-{i}.core");
                string named = Path.Combine(folder, $"{mode}_{epoch}.core");
                File.Move(made, named);
                dumps.Add(named);
            }
            var series = new Series(folder, dumps, process.Output);
            Cache[key] = series;
            return series;
        }
    }
}
