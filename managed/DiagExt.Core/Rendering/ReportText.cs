using System.Globalization;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Rendering;

/// <summary>
/// The words every renderer shares, single dump and batch alike, so the two cannot drift apart: how findings
/// are counted (information findings are notes, never "findings": they do not make exit code 1), a thread's
/// CPU time, a runtime, a size.
/// </summary>
public static class ReportText
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>"no hazard", "1 finding", "2 findings", each with ", 1 note" when there are notes.</summary>
    public static string Count(int hazards, int notes, string none = "no hazard")
    {
        string main = hazards switch { 0 => none, 1 => "1 finding", _ => $"{hazards} findings" };
        return notes == 0 ? main : $"{main}, {Plural(notes, "note")}";
    }

    public static string Count(AnalysisReport report, string none = "no hazard") => Count(report.Hazards, report.Notes, none);

    /// <summary>"analysis incomplete: hang failed, so what it looks for is not in this report".</summary>
    public static string Incomplete(AnalysisReport report)
    {
        string[] failed = report.Failures.Select(o => o.Detector).ToArray();
        return $"analysis incomplete: {string.Join(", ", failed)} failed, so what {(failed.Length == 1 ? "it looks" : "they look")} for is not in this report";
    }

    public static string Plural(int n, string noun) => n == 1 ? $"1 {noun}" : $"{n.ToString(Invariant)} {noun}s";

    /// <summary>"CPU user 1.500s kernel 0.250s", with the share of a core before a live attach; "" when not recorded.</summary>
    public static string Cpu(ThreadRef thread)
    {
        if (thread.UserCpu is not { } user)
            return "";
        string text = $"CPU user {DurationText.Format(user)} kernel {DurationText.Format(thread.KernelCpu ?? TimeSpan.Zero)}";
        if (thread.RecentCpuShare is double share)
            text += string.Format(Invariant, ", {0:0}% of a core just before attach", share * 100);
        return text;
    }

    /// <summary>The runtime in a sentence: ".NET 10.0.1", "no .NET runtime", ".NET 8.0.3 (not loadable)".</summary>
    public static string Runtime(RuntimeStatus runtime) => runtime.Availability switch
    {
        RuntimeAvailability.Loaded => $"{runtime.Flavor} {runtime.Version}",
        RuntimeAvailability.NotPresent => "no .NET runtime",
        _ => $"{runtime.Flavor} {runtime.Version} (not loadable)",
    };

    /// <summary>The runtime in a table cell: ".NET 10.0.1", "none", "unusable".</summary>
    public static string RuntimeCell(RuntimeStatus runtime)
    {
        string name = $"{runtime.Flavor} {runtime.Version}".Trim();
        return runtime.Availability switch
        {
            RuntimeAvailability.Loaded => name,
            RuntimeAvailability.NotPresent => "none",
            _ => name.Length == 0 ? "unusable" : $"{name} (unusable here)",
        };
    }

    /// <summary>How long a live target was kept from running, and by what: "the process was stopped 0.81s while it was read".</summary>
    public static string Pause(ProcessPause pause) => string.Format(Invariant, "the process was {0} {1:0.00}s {2}{3}",
        pause.By == PauseCause.Clone ? "paused" : "stopped", pause.Stopped.TotalSeconds, pause.By switch
        {
            PauseCause.CreateDump => "while createdump wrote the snapshot",
            PauseCause.Clone => "while Windows cloned it",
            _ => "while it was read",
        },
        pause.SnapshotWouldBeShorter ? string.Format(Invariant, ", longer than a snapshot would likely stop it (createdump, about {0:0.0}s)", pause.SnapshotEstimate!.Value.TotalSeconds) : "");

    /// <summary>A wall time in a table: "1.6s".</summary>
    public static string Seconds(TimeSpan elapsed) => string.Format(Invariant, "{0:0.0}s", elapsed.TotalSeconds);

    public static string Size(long? bytes) => bytes switch
    {
        null => "",
        < 1024 * 1024 => string.Format(Invariant, "{0:0.#} KB", bytes / 1024.0),
        < 1024L * 1024 * 1024 => string.Format(Invariant, "{0:0.#} MB", bytes / (1024.0 * 1024)),
        _ => string.Format(Invariant, "{0:0.##} GB", bytes / (1024.0 * 1024 * 1024)),
    };
}
