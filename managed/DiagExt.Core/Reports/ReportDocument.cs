using System.Text.Json.Serialization;
using DiagExt.Core.Rendering;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Reports;

/// <summary>
/// The JSON shape of one report, property for property (declaration order is the order in the file). Both
/// directions go through it: <see cref="From"/> for the writer, <see cref="ToReport"/> for the reader.
/// </summary>
internal sealed record ReportDocument
{
    public int SchemaVersion { get; init; } = ReportJson.SchemaVersion;

    public ToolDocument Tool { get; init; } = new("diagext", ToolVersion.Current);

    public TargetDocument? Target { get; init; }

    public ScanDocument? Scan { get; init; }

    public IReadOnlyList<Finding> Findings { get; init; } = [];

    public IReadOnlyList<DetectorDocument> Detectors { get; init; } = [];

    public long? HeapObjects { get; init; }

    public HeapPassDocument? HeapPass { get; init; }

    public StartupDocument? Startup { get; init; }

    public PauseDocument? Pause { get; init; }

    public double ElapsedMs { get; init; }

    public static ReportDocument From(AnalysisReport report) => new()
    {
        Target = report.Subject is TargetSummary t
            ? new TargetDocument(t.Name, t.Kind, t.Platform, t.Architecture, t.ProcessId, t.ThreadCount,
                new RuntimeDocument(t.Runtime.Availability, t.Runtime.Version, t.Runtime.Flavor, t.Runtime.Problem), t.CpuTimeSource, t.CpuTimeUnavailable)
                { DumpTime = t.DumpTime, ProcessStart = t.ProcessStart, ProcessImage = t.ProcessImage }
            : null,
        Scan = report.Subject is AssemblyScanSummary s ? new ScanDocument(s.Inputs, s.Files, s.Assemblies, s.NativeFilesSkipped, s.MethodsAnalysed) : null,
        Findings = report.Findings.ToList(),
        Detectors = report.Outcomes.Select(o => new DetectorDocument(o.Detector, o.Status, o.Reason, o.Findings.Count, Ms(o.Elapsed), o.Detail)
        {
            HeapInterest = o.HeapInterest is { } cost ? new HeapInterestDocument(cost.Objects, Ms(cost.Elapsed)) : null,
        }).ToList(),
        HeapObjects = report.HeapObjects,
        HeapPass = report.HeapPass is { } pass ? new HeapPassDocument(Ms(pass.Elapsed), pass.Background) { Walkable = pass.Walkable ? null : false } : null,
        Startup = report.Startup is { } startup ? new StartupDocument(Ms(startup.ProcessStart), Ms(startup.Open)) : null,
        Pause = report.Pause is { } pause ? new PauseDocument(Ms(pause.Stopped), PauseDocument.Name(pause.By), pause.SnapshotEstimate is { } e ? Ms(e) : null) : null,
        ElapsedMs = Ms(report.Elapsed),
    };

    public AnalysisReport ToReport()
    {
        ReportSubject subject = (Target, Scan) switch
        {
            ({ } t, null) => new TargetSummary(t.Name, t.Kind, t.Platform, t.Architecture, t.ProcessId, t.Threads,
                new RuntimeStatus(t.Runtime.Availability, t.Runtime.Version, t.Runtime.Flavor, t.Runtime.Problem), t.CpuTimeSource, t.CpuTimeUnavailable)
                { DumpTime = t.DumpTime, ProcessStart = t.ProcessStart, ProcessImage = t.ProcessImage },
            (null, { } s) => new AssemblyScanSummary(s.Inputs, s.Files, s.Assemblies, s.NativeFilesSkipped, s.MethodsAnalysed),
            _ => throw new System.Text.Json.JsonException("a report needs exactly one of \"target\" and \"scan\""),
        };
        var outcomes = Detectors.Select(d => new DetectorOutcome(d.Name, d.Status, d.Reason,
            Findings.Where(f => f.Detector == d.Name).ToList(), TimeSpan.FromMilliseconds(d.ElapsedMs))
        {
            Detail = d.Detail,
            HeapInterest = d.HeapInterest is { } cost ? new HeapInterestCost(cost.Objects, TimeSpan.FromMilliseconds(cost.ElapsedMs)) : null,
        }).ToList();
        if (outcomes.Sum(o => o.Findings.Count) != Findings.Count)
            throw new System.Text.Json.JsonException("a finding of a detector the report does not list");
        return new AnalysisReport(subject, outcomes, HeapObjects, TimeSpan.FromMilliseconds(ElapsedMs))
        {
            HeapPass = HeapPass is { } p ? new HeapPassSummary(HeapObjects ?? 0, TimeSpan.FromMilliseconds(p.ElapsedMs), p.Background) { Walkable = p.Walkable ?? true } : null,
            Startup = Startup is { } st ? new StartupTimes(TimeSpan.FromMilliseconds(st.ProcessStartMs), TimeSpan.FromMilliseconds(st.OpenMs)) : null,
            Pause = Pause is { } pause
                ? new ProcessPause(TimeSpan.FromMilliseconds(pause.StoppedMs), PauseDocument.Cause(pause.By))
                    { SnapshotEstimate = pause.SnapshotEstimateMs is double e ? TimeSpan.FromMilliseconds(e) : null }
                : null,
        };
    }

    private static double Ms(TimeSpan span) => Math.Round(span.TotalMilliseconds, 1);
}

internal sealed record ToolDocument(string Name, string Version);

/// <summary>Kind and availability keep their C# names in JSON ("WindowsMinidump", "Loaded"), as they always had.</summary>
internal sealed record TargetDocument(
    string Name,
    [property: JsonConverter(typeof(JsonStringEnumConverter<TargetKind>))] TargetKind Kind,
    string Platform,
    string Architecture,
    int? ProcessId,
    int Threads,
    RuntimeDocument Runtime,
    string? CpuTimeSource,
    string? CpuTimeUnavailable)
{
    /// <summary>UTC, from the dump itself (a minidump's header); absent for a core.</summary>
    public DateTime? DumpTime { get; init; }

    public DateTime? ProcessStart { get; init; }

    public string? ProcessImage { get; init; }
}

internal sealed record RuntimeDocument([property: JsonConverter(typeof(JsonStringEnumConverter<RuntimeAvailability>))] RuntimeAvailability Availability, string? Version, string? Flavor, string? Problem);

internal sealed record ScanDocument(string Inputs, int Files, int Assemblies, int NativeFilesSkipped, int MethodsAnalysed);

/// <param name="Detail">A failed detector's stack, only in a --verbose report.</param>
internal sealed record DetectorDocument(string Name, DetectorStatus Status, string? Reason, int Findings, double ElapsedMs, string? Detail = null)
{
    public HeapInterestDocument? HeapInterest { get; init; }
}

/// <summary>
/// A detector's share of the heap pass. Its time is called elapsedMs, as every timing in the report is, so that what
/// compares reports timings aside (scripts/compare-json.sh, the shard tests) leaves it out with the rest.
/// </summary>
internal sealed record HeapInterestDocument(long Objects, double ElapsedMs);

internal sealed record HeapPassDocument(double ElapsedMs, bool Background)
{
    /// <summary>Written only as false: the heap could not be walked (read during a garbage collection).</summary>
    public bool? Walkable { get; init; }
}

internal sealed record StartupDocument(double ProcessStartMs, double OpenMs);

/// <param name="By">"ptrace", "createdump" or "clone" (<see cref="PauseCause"/>).</param>
/// <param name="SnapshotEstimateMs">For ptrace: about how long a snapshot (createdump) would have stopped the process.</param>
internal sealed record PauseDocument(double StoppedMs, string By, double? SnapshotEstimateMs = null)
{
    public static string Name(PauseCause cause) => cause.ToString().ToLowerInvariant();

    public static PauseCause Cause(string name) =>
        Enum.TryParse(name, ignoreCase: true, out PauseCause cause) && Enum.IsDefined(cause) ? cause : throw new System.Text.Json.JsonException($"unknown pause cause \"{name}\"");
}
