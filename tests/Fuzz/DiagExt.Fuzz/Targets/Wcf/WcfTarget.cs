using DiagExt.Core;
using DiagExt.Core.Analysis;
using DiagExt.Core.Detectors.WcfHang;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using DiagExt.Fuzz.Checks;
using DiagExt.Fuzz.Engine;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Fuzz.Targets.Wcf;

/// <summary>
/// wcfhang over a real hung client's core whose WCF objects are replaced by the input (<see cref="HeapChunkCodec"/>):
/// references that point anywhere, at themselves or in loops between handler and binder, counts and flags at their
/// extremes, MethodTables that are not. The whole detector runs through ClrMD and the DAC as in diagext: it must end,
/// report only what the JSON contract allows, and render clean text, DML and JSON.
/// </summary>
public sealed class WcfTarget : IFuzzTarget
{
    private const int MaxFindings = StuckCallFinder.MaxPendingRequests;

    public string Name => "wcf";

    public string Covers => "Detectors/WcfHang (WcfFields, DuplexRequest, ChannelBinding, MessageIds, StuckCallFinder, the finding) through ClrMD over a real core with its WCF objects replaced";

    /// <summary>Extremes, plus the address of every WCF object of the core: a reference set to another object's address
    /// makes the wrong-type references and the loops between handler, binder and requests.</summary>
    public IReadOnlyList<byte[]> Tokens =>
        [[0, 0, 0, 0, 0, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0xFF], [1, 0, 0, 0], [2, 0, 0, 0], .. (SampleCore.Shared?.Objects ?? []).Select(o => BitConverter.GetBytes(o.Address))];

    public IEnumerable<byte[]> BuiltInSeeds()
    {
        if (SampleCore.Shared is not { Objects.Count: > 0 } core)
            yield break;
        yield return HeapChunkCodec.Encode(core.Objects);
    }

    public IReadOnlyList<Field> Fields(ReadOnlySpan<byte> input)
    {
        var fields = new FieldList(input.Length);
        byte[] copy = input.ToArray();
        if (SampleCore.Shared is not { } core)
            return fields.ToList();
        foreach (var (chunk, offset) in HeapChunkCodec.Decode(copy))
        {
            fields.Add(offset - HeapChunkCodec.ChunkHeaderSize, 8, FieldKind.Pointer, chunk.Address);
            fields.Add(offset - 4, 4, FieldKind.Length, (ulong)chunk.Bytes.Length);
            foreach (var (at, size, kind) in core.FieldsAt(chunk.Address))
                fields.Add(offset + at, size, kind, chunk.Address); // a reference to its own object: the loops the issue names
        }
        return fields.ToList();
    }

    public bool IsDocumentedRejection(Exception e) => false; // a lying heap is data: wcfhang must never throw on it

    public string Execute(ReadOnlyMemory<byte> input)
    {
        if (SampleCore.Shared is not { } core)
            return "no-core";
        var chunks = HeapChunkCodec.Decode(input).Select(c => c.Chunk).ToList();
        using Target target = core.Overlay(chunks, "fuzzed WCF core");
        ClrRuntime? runtime = target.Runtime;
        AnalysisReport report = Analyzer.Run(target, [new WcfHangDetector()]);
        ReportChecks.Check(report);

        var findings = report.Findings.OfType<WcfHangFinding>().ToList();
        if (findings.Count > MaxFindings)
            throw new PropertyViolation($"{findings.Count} findings, over the {MaxFindings} pending requests wcfhang examines");
        foreach (WcfHangFinding f in findings)
        {
            if (f.Kind is not (WcfHangDetector.SelfDeadlock or WcfHangDetector.WaitingForReply))
                throw new PropertyViolation($"unknown verdict '{f.Kind}'");
            if (f.Threads.Count == 0 || f.Threads.Count > target.Threads.Count)
                throw new PropertyViolation($"a finding names {f.Threads.Count} threads of {target.Threads.Count}");
            if (f.Threads.Any(t => t.Stack?.Count > TargetThread.MaxStackTextFrames + 1) || f.Proof.Count > 16)
                throw new PropertyViolation($"a stack or the proof ({f.Proof.Count} lines) past its bound");
            if (f.Kind == WcfHangDetector.SelfDeadlock && !f.Proof.Any(p => p.StartsWith("the same stack runs the receive pump", StringComparison.Ordinal)))
                throw new PropertyViolation("a self-deadlock without the pump frames in its proof");
        }
        string? note = report.Outcomes.Single().Reason;
        return new Signature().Add("runtime", runtime is not null).Add("kinds", string.Join(",", findings.Select(f => f.Kind).Distinct().Order()))
            .Add("findings", findings.Count).Add("note", note?.Split(':')[0]).Add("operation", findings.FirstOrDefault()?.Operation is not null)
            .Add("remote", findings.FirstOrDefault()?.RemoteAddress is not null).ToString();
    }
}
