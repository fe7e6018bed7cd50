using System.Globalization;
using System.Text.RegularExpressions;
using DiagExt.Core.Analysis;
using DiagExt.Core.Reports;

namespace DiagExt.Cli.Batch;

/// <summary>
/// Finds the dumps of a batch that are of one process (same process id, same runtime load address, and the same start
/// time where the dumps carry one: dumps of different processes never merge), puts each such series in time order and
/// has every detector that can (<see cref="ISeriesJudge"/>) compare them. No option asks for it: procdump -n and
/// createdump run twice give names that differ only in their time, and a folder of them is a series as it stands.
/// </summary>
public static partial class SeriesGrouper
{
    /// <param name="fileTimes">Each dump name's file modification time, where it is a plain file: the order of cores, which carry no time.</param>
    public static IReadOnlyList<DumpSeries> Find(IReadOnlyList<DumpResult> dumps, IReadOnlyList<IDetector> detectors, Func<string, DateTime?> fileTimes)
    {
        var analysed = dumps.Where(d => d.SameContentAs is null && d.Report?.Target is { ProcessId: not null, ProcessImage: not null }).ToList();
        var series = new List<DumpSeries>();
        foreach (var group in analysed.GroupBy(d => Identity(d.Report!.Target!)).Where(g => g.Count() >= 2).OrderBy(g => g.Key, StringComparer.Ordinal))
        {
            var members = group.ToList();
            var damaged = dumps.Where(d => d.Report is null && d.SameContentAs is null && members.Any(m => Stem(m.Name) == Stem(d.Name))).ToList();
            series.Add(Build(members, damaged, detectors, fileTimes));
        }
        return series;
    }

    private static string Identity(TargetSummary t) =>
        $"pid {t.ProcessId} ({t.ProcessImage}{(t.ProcessStart is { } start ? $", started {Utc(start)}" : "")})";

    private static DumpSeries Build(List<DumpResult> members, List<DumpResult> damaged, IReadOnlyList<IDetector> detectors, Func<string, DateTime?> fileTimes)
    {
        var problems = new List<string>();
        var timed = members.Select(d => (Dump: d, Time: TimeOf(d, fileTimes, out string source), Source: source)).ToList();
        var sources = timed.Select(t => t.Source).Distinct().ToList();
        string timeSource = sources.Count == 1 ? sources[0] : string.Join(", ", sources);
        bool trusted = timed.All(t => t.Time is not null);
        // Order by the dumps' own times; where two tie or a dump's name says another order than its header, say so and trust no span.
        var ordered = timed.OrderBy(t => t.Time ?? DateTime.MaxValue).ThenBy(t => t.Dump.Name, StringComparer.Ordinal).ToList();
        for (int i = 1; i < ordered.Count; i++)
            if (ordered[i].Time is { } now && ordered[i - 1].Time is { } then && now <= then)
            {
                problems.Add($"{ordered[i - 1].Dump.Name} and {ordered[i].Dump.Name} have the same time ({Utc(now)}): their order is not known");
                trusted = false;
            }
        var byName = ordered.Where(t => NameTime(t.Dump.Name) is not null).ToList();
        for (int i = 1; i < byName.Count; i++)
            if (NameTime(byName[i].Dump.Name) < NameTime(byName[i - 1].Dump.Name))
            {
                problems.Add($"{byName[i].Dump.Name} was written after {byName[i - 1].Dump.Name} by {timeSource}, but its name says earlier: the times are not trusted");
                trusted = false;
            }
        foreach (DumpResult d in damaged)
            problems.Add($"{d.Name}: not compared ({d.Error ?? d.Status.ToString()})");
        var snapshots = ordered.Select(t => new SeriesSnapshot(t.Dump.Name, trusted ? t.Time : null, t.Dump.Report!)).ToList();
        var verdicts = detectors.Select(d => Judge(d, snapshots, problems)).ToList();
        return new DumpSeries
        {
            Process = Identity(members[0].Report!.Target!),
            Dumps = [.. ordered.Select(t => new SeriesDump(t.Dump.Name, t.Time, true)), .. damaged.Select(d => new SeriesDump(d.Name, null, false))],
            TimeSource = timeSource,
            Span = trusted ? ordered[^1].Time - ordered[0].Time : null,
            Problems = problems,
            Threads = verdicts.SelectMany(v => v.Threads).ToList(),
            Findings = verdicts.SelectMany(v => v.Findings).ToList(),
            Moved = verdicts.SelectMany(v => v.Moved).ToList(),
        };
    }

    /// <summary>
    /// One detector's comparison; its failure is said among the series' problems and costs only its own verdicts, as a
    /// detector that fails on one dump costs only its findings there.
    /// </summary>
    private static SeriesVerdicts Judge(IDetector detector, IReadOnlyList<SeriesSnapshot> snapshots, List<string> problems)
    {
        try
        {
            return detector.SeriesJudge?.Judge(snapshots) ?? SeriesVerdicts.None;
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            problems.Add($"{detector.Name}: could not compare the dumps ({e.GetType().Name}: {e.Message})");
            return SeriesVerdicts.None;
        }
    }

    /// <summary>The dump's own time (a minidump's header), else the time its name carries, else its file's modification time.</summary>
    private static DateTime? TimeOf(DumpResult dump, Func<string, DateTime?> fileTimes, out string source)
    {
        if (dump.Report!.Target!.DumpTime is { } header)
        {
            source = "the dumps' headers (to the second)";
            return header;
        }
        if (NameTime(dump.Name) is { } named)
        {
            source = "the times in the file names";
            return named;
        }
        source = "the files' modification times (a core carries no time of its own)";
        return fileTimes(dump.Name);
    }

    /// <summary>
    /// procdump's "name_YYMMDD_HHMMSS" (local time, read as given) or createdump's %t (seconds since 1970) in a file
    /// name; null when the name has neither.
    /// </summary>
    public static DateTime? NameTime(string name)
    {
        string file = name[(name.LastIndexOfAny(['/', '\\', ':']) + 1)..];
        if (ProcdumpTime().Match(file) is { Success: true } p &&
            DateTime.TryParseExact(p.Groups[1].Value + p.Groups[2].Value, "yyMMddHHmmss", CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal | DateTimeStyles.AdjustToUniversal, out DateTime t))
            return t;
        if (EpochTime().Match(file) is { Success: true } e && long.TryParse(e.Groups[1].Value, CultureInfo.InvariantCulture, out long seconds) && seconds is > 1_000_000_000 and < 4_000_000_000)
            return DateTime.UnixEpoch.AddSeconds(seconds);
        return null;
    }

    /// <summary>A name with its time taken out: how a dump that could not be read is put beside the series it was taken in.</summary>
    private static string Stem(string name) => EpochTime().Replace(ProcdumpTime().Replace(name, "_"), "");

    private static string Utc(DateTime t) => t.ToUniversalTime().ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture) + " UTC";

    [GeneratedRegex(@"_(\d{6})_(\d{6})(?!\d)")]
    private static partial Regex ProcdumpTime();

    [GeneratedRegex(@"(?<!\d)(\d{10})(?!\d)")]
    private static partial Regex EpochTime();
}
