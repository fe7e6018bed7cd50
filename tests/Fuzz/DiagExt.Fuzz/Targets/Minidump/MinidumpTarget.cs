using DiagExt.Core;
using System.Text;
using DiagExt.Core.Analysis;
using DiagExt.Core.Detectors.LoaderLock;
using DiagExt.Core.Native;
using DiagExt.Core.Native.Minidump;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using DiagExt.Core.Targets.CpuTime;
using DiagExt.Fuzz.Checks;
using DiagExt.Fuzz.Engine;

namespace DiagExt.Fuzz.Targets.Minidump;

/// <summary>
/// A whole Windows minidump through DiagExt's own reader and everything built on it: the stream parsers (threads,
/// thread info list, modules, memory lists, system and misc info), thread times, CONTEXT records, the WOW64 and
/// TEB/PEB/critical-section reads, PE exports and .pdata of every module image, the x64 unwinder and stack scanner,
/// and the loader-lock analysis; its report is rendered as text, DML and JSON and checked.
/// </summary>
public sealed class MinidumpTarget : IFuzzTarget
{
    public string Name => "minidump";

    public string Covers => "Native/Minidump (MinidumpFile, MinidumpDirectory, MinidumpStreamParsers), Native/Windows (TEB, PEB, WOW64, critical sections), Native/Pe, Native/Stacks, Native/Symbols, Detectors/LoaderLock, rendering";

    public IReadOnlyList<byte[]> Tokens { get; } = [Encoding.ASCII.GetBytes("MDMP"), [0x93, 0xA7, 0, 0], Encoding.ASCII.GetBytes("MZ"), Encoding.ASCII.GetBytes("PE\0\0")];

    public IEnumerable<byte[]> BuiltInSeeds() => SyntheticMinidump.All();

    public IReadOnlyList<Field> Fields(ReadOnlySpan<byte> input) => MinidumpFields.Find(input);

    public bool IsDocumentedRejection(Exception e) => e is InvalidDataException;

    public string Execute(ReadOnlyMemory<byte> input)
    {
        var signature = new Signature();
        using MinidumpFile dump = MinidumpFile.Open(new FileBytes("fuzz.dmp", input));
        signature.Add("truncated", dump.RequiredFileLength() > dump.FileLength);
        signature.Add("arch", dump.SystemInfo?.ArchitectureName.Split(' ')[0]).Add("misc", dump.MiscInfo is not null).Add("time", dump.Timestamp is not null);
        signature.Add("threads", dump.Threads.Count).Add("infos", dump.ThreadInfos?.Count).Add("modules", dump.Modules.Count).Add("ranges", dump.MemoryRanges.Count);
        int contexts = dump.Threads.Count(t => dump.ReadThreadContext(t) is not null);
        signature.Add("contexts", contexts);

        ThreadTimes times = MinidumpThreadTimesReader.Read(dump);
        var notes = new List<string>();
        IReadOnlyList<Finding> findings = LoaderLockDetector.Analyze(dump, times, Limits.Default, notes.Add, CancellationToken.None);
        signature.Add("note", notes.FirstOrDefault());
        foreach (Finding f in findings)
            signature.Add("finding", f.Kind).Add("threads", f.Threads.Count).Add("evidence", f.Evidence.Count);

        var summary = new TargetSummary("fuzz.dmp", TargetKind.WindowsMinidump, "Windows", dump.SystemInfo?.ArchitectureName ?? "unknown",
            (int?)dump.MiscInfo?.ProcessId, dump.Threads.Count, RuntimeStatus.NotPresent, times.Available ? times.Source : null, times.UnavailableReason);
        var outcome = new DetectorOutcome(LoaderLockDetector.CommandName, DetectorStatus.Ran, notes.Count == 0 ? null : string.Join("; ", notes), findings, TimeSpan.Zero);
        ReportChecks.Check(new AnalysisReport(summary, [outcome], null, TimeSpan.Zero));
        return signature.ToString();
    }
}
