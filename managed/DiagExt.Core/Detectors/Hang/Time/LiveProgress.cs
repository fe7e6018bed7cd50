using System.Globalization;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// What a dump cannot prove: that the blocked threads stay blocked. On a live process the threads were watched for
/// <see cref="HangDetector.LiveWindow"/> before it was suspended (CPU time and the system call each sits in, at both
/// ends): no CPU and the same wait throughout is "still blocked"; any CPU or another system call is "moved".
/// </summary>
internal static class LiveProgress
{
    public static HangFinding Annotate(HangFinding finding, Target target)
    {
        if (target.Kind != TargetKind.LiveProcess || finding.Threads.Count == 0)
            return finding;
        var threads = finding.Threads.Select(t => (Ref: t, Cpu: target.FindThread(t.OsThreadId)?.Cpu)).ToList();
        if (threads.Any(t => t.Cpu is not { Watched: true }))
            return finding; // not measured (not Linux, /proc unreadable): say nothing rather than guess
        TimeSpan window = threads.Max(t => t.Cpu!.RecentWindow!.Value);
        string seconds = window.TotalSeconds.ToString("0.0", CultureInfo.InvariantCulture);
        var moved = threads.Where(t => t.Cpu!.MovedWhileWatched).ToList();
        string progress;
        if (moved.Count == 0)
        {
            bool sameWait = threads.All(t => t.Cpu!.SameSyscallThroughout == true);
            progress = $"still blocked after {seconds} s, no CPU used{(sameWait ? ", each thread in the same system call throughout" : "")}";
        }
        else
        {
            progress = $"moved: {string.Join(", ", moved.Select(m => $"0x{m.Ref.OsThreadId:x} " + (m.Cpu!.Recent > TimeSpan.Zero ? $"used {m.Cpu.Recent!.Value.TotalMilliseconds:0} ms CPU" : "changed its system call")))} in the {seconds} s before the read";
        }
        finding = finding with
        {
            Progress = progress,
            Evidence = [.. finding.Evidence, Markup.Text($"live: {progress}")],
        };
        // The same verdict a dump series gives: a chain nothing in moved while it was watched is stuck, one that moved is contention.
        if (finding.TimeSettles && moved.Count == 0)
            finding = finding with
            {
                Kind = HangDetector.StuckChain,
                Level = FindingSeverity.Hazard,
                TimeSettles = false,
                Title = $"{finding.Title}: stuck for at least {seconds} s (live)",
            };
        return finding;
    }
}
