using System.Globalization;
using DiagExt.Core.Analysis;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Settles blocked chains with time: compares the chains of dumps of one process taken in turn. A chain whose threads
/// wait in every dump at the same frame, on the same object, behind the same holder, and whose registers and stack words
/// (pointers aside) and CPU times, where the dumps carry them, did not change, is stuck: a hazard "for at least
/// T s across N dumps". Frames, objects and owners alone would not do: in dumps of a busy contended process taken
/// seconds apart, about one pair in ten shows the same holder and waiters at the same frames; the fingerprint of what
/// the threads hold (<see cref="Targets.Stacks.ThreadFingerprint"/>) changes when they ran. A chain that moved gives
/// no warning, only a line saying which threads moved and how that shows.
/// </summary>
internal sealed class ChainSeries : ISeriesJudge
{
    public SeriesVerdicts Judge(IReadOnlyList<SeriesSnapshot> snapshots)
    {
        // Per dump, its chains keyed by the thread they end at (a chain's threads list its end first).
        var chains = snapshots.Select(s => s.Report.Findings.OfType<HangFinding>()
                .Where(f => f.TimeSettles && f.Threads.Count > 0)
                .GroupBy(f => (f.Kind, Holder: HangIdentity.Holder(f))).ToDictionary(g => g.Key, g => g.First()))
            .ToList();
        // A dump read during a garbage collection may miss a chain that is there (its locks' owners unreadable): its
        // not showing a chain tells nothing, so it neither forms nor clears one.
        var blind = snapshots.Select(s => s.Report.HeapPass is { Walkable: false }).ToList();
        var findings = new List<Finding>();
        var moved = new List<string>();
        foreach (var key in chains.SelectMany(c => c.Keys).Distinct().OrderBy(k => k.Holder).ThenBy(k => k.Kind, StringComparer.Ordinal))
        {
            var seen = chains.Select(c => c.GetValueOrDefault(key)).ToList();
            string who = key.Kind == HangDetector.BlockedChain ? $"the chain behind thread 0x{key.Holder:x}" : $"the {key.Kind} of thread 0x{key.Holder:x}";
            var there = Enumerable.Range(0, seen.Count).Where(d => seen[d] is not null).ToList();
            var missing = Enumerable.Range(0, seen.Count).Where(d => seen[d] is null).ToList();
            if (missing.Any(d => !blind[d]))
            {
                moved.Add($"{who} is in {there.Count} of {seen.Count} dumps: it formed or cleared between them");
                continue;
            }
            if (missing.Count > 0)
            {
                string which = $"{Numbered(missing, snapshots)} {(missing.Count == 1 ? "was" : "were")} read during a garbage collection";
                if (there.Count < 2)
                {
                    moved.Add($"{who} is in {there.Count} of {seen.Count} dumps, and {which}, which cannot tell whether it was there: take {(missing.Count == 1 ? "that dump" : "those dumps")} again");
                    continue;
                }
                moved.Add($"{which}, which cannot tell whether {who} was there: it is judged on the other {there.Count}");
            }
            var present = there.Select(d => seen[d]!).ToList();
            var changes = Changes(present, there.Select(d => d + 1).ToList()).ToList();
            if (changes.Count > 0)
            {
                moved.Add($"{who} moved: {string.Join("; ", changes)}");
                continue;
            }
            findings.Add(Stuck(present, snapshots[there[^1]].Time - snapshots[there[0]].Time, "dumps"));
        }
        return new SeriesVerdicts(findings, moved, Threads(snapshots));
    }

    /// <summary>"dump 1 (a.core)", "dumps 1 (a.core) and 3 (c.core)": 1-based, as the series lists them.</summary>
    private static string Numbered(IReadOnlyList<int> dumps, IReadOnlyList<SeriesSnapshot> snapshots) =>
        (dumps.Count == 1 ? "dump " : "dumps ") + string.Join(" and ", dumps.Select(d => $"{d + 1} ({Path.GetFileName(snapshots[d].Dump)})"));

    /// <summary>
    /// What differs between consecutive dumps of one chain, thread by thread; empty when nothing does.
    /// <paramref name="numbers"/>: each one's number in the series (1, 2, ... when null).
    /// </summary>
    internal static IEnumerable<string> Changes(IReadOnlyList<HangFinding> seen, IReadOnlyList<int>? numbers = null)
    {
        for (int i = 1; i < seen.Count; i++)
        {
            (int from, int to) = numbers is null ? (i, i + 1) : (numbers[i - 1], numbers[i]);
            var before = seen[i - 1].Threads.ToDictionary(t => t.OsThreadId);
            var came = seen[i].Threads.Where(t => !before.ContainsKey(t.OsThreadId)).Select(t => $"0x{t.OsThreadId:x}").ToList();
            var left = before.Keys.Where(os => seen[i].Threads.All(t => t.OsThreadId != os)).Select(os => $"0x{os:x}").ToList();
            if (came.Count + left.Count > 0)
                yield return $"its waiters changed between dumps {from} and {to} ({string.Join(", ", came.Select(c => "+" + c).Concat(left.Select(l => "-" + l)))})";
            foreach (ThreadRef now in seen[i].Threads)
            {
                if (!before.TryGetValue(now.OsThreadId, out ThreadRef? then))
                    continue;
                if (Difference(then, seen[i - 1], now, seen[i]) is { } what)
                    yield return $"0x{now.OsThreadId:x} {what} between dumps {from} and {to}";
            }
        }
    }

    /// <summary>How one thread shows it moved between two dumps, or null when nothing shows it.</summary>
    private static string? Difference(ThreadRef then, HangFinding? thenFinding, ThreadRef now, HangFinding? nowFinding)
    {
        if (then.Frame != now.Frame)
            return $"changed its wait ({then.Frame ?? "not waiting"} -> {now.Frame ?? "not waiting"})";
        if (Wait(then, thenFinding) != Wait(now, nowFinding))
            return $"waits on another object or behind another holder (now: {now.Role})";
        if (Cpu(then) is { } a && Cpu(now) is { } b && b > a)
            return $"used {(b - a).TotalMilliseconds:0} ms CPU";
        if (then.Fingerprint is { } x && now.Fingerprint is { } y && x != y)
            return "changed its registers or stack (it ran)";
        return null;
    }

    /// <summary>
    /// Its wait with each lock a static field holds named by that field instead of its address: a compacting GC between
    /// two dumps may move the lock object, not the wait. A lock no static holds keeps its address (moved reads as moved).
    /// </summary>
    private static string Wait(ThreadRef t, HangFinding? finding) =>
        (finding?.Locks ?? []).Where(l => l.Path is not null).Aggregate(t.Role, (role, l) => role.Replace(l.Address.ToString(), l.Path, StringComparison.Ordinal));

    private static TimeSpan? Cpu(ThreadRef t) => t.UserCpu is { } u ? u + (t.KernelCpu ?? TimeSpan.Zero) : null;

    /// <param name="what">"dumps" or "samples": what <paramref name="seen"/> came from.</param>
    internal static HangFinding Stuck(IReadOnlyList<HangFinding> seen, TimeSpan? span, string what)
    {
        HangFinding last = seen[^1];
        string forHow = span is { } s && s > TimeSpan.Zero ? $"for at least {Seconds(s)} s across {seen.Count} {what}" : $"across {seen.Count} {what} (their times are not known to go forward)";
        var signals = new List<string> { "the same threads at the same frames, waiting on the same objects behind the same holders" };
        if (seen.All(f => f.Threads.All(t => t.Fingerprint is not null)))
            signals.Add("registers and stack words unchanged (pointers aside)");
        if (seen.All(f => f.Threads.All(t => t.UserCpu is not null)))
            signals.Add("no CPU time used");
        var evidence = new List<Markup> { Markup.Text($"stuck {forHow}: {string.Join("; ", signals)}") };
        evidence.AddRange(last.Evidence);
        if (last.Kind != HangDetector.BlockedChain)
        {
            // Another wait time settles (a remote wait no timeout ends): its own kind, now a hazard, with the time.
            return last with
            {
                Level = FindingSeverity.Hazard,
                TimeSettles = false,
                Title = $"{last.Title}: stuck {forHow}",
                Summary = $"{last.Summary} Nothing moved {forHow}: {string.Join("; ", signals)}.",
                Evidence = evidence,
                Progress = $"stuck {forHow}",
            };
        }
        int waiters = last.Threads.Count - 1;
        return last with
        {
            Kind = HangDetector.StuckChain,
            Level = FindingSeverity.Hazard,
            TimeSettles = false,
            Title = $"{waiters} threads stuck behind thread 0x{HangIdentity.Holder(last):x} {forHow}",
            Summary = $"{waiters} threads wait, one behind the other, behind thread 0x{HangIdentity.Holder(last):x}, and nothing moved {forHow}: " +
                      $"{string.Join("; ", signals)}. This is not contention: they are hung with it.",
            Evidence = evidence,
            Progress = $"stuck {forHow}",
        };
    }

    /// <summary>The stuck verdict told on a richer finding of the same chain (a dump's, with lock names and stacks): its kind, title and time, that finding's evidence.</summary>
    internal static HangFinding Restate(HangFinding stuck, HangFinding basis) => basis with
    {
        Kind = stuck.Kind,
        Level = stuck.Level,
        TimeSettles = false,
        Title = stuck.Title,
        Summary = stuck.Summary,
        Progress = stuck.Progress,
        Evidence = [stuck.Evidence[0], .. basis.Evidence],
    };

    private static string Seconds(TimeSpan s) => s.TotalSeconds.ToString("0.0", CultureInfo.InvariantCulture);

    /// <summary>Every thread a hang finding of some dump names, with its wait in each dump.</summary>
    private static IReadOnlyList<SeriesThread> Threads(IReadOnlyList<SeriesSnapshot> snapshots)
    {
        var perDump = snapshots.Select(s =>
        {
            var map = new Dictionary<uint, (ThreadRef Ref, HangFinding Finding)>();
            foreach (HangFinding f in s.Report.Findings.OfType<HangFinding>())
                foreach (ThreadRef t in f.Threads)
                    map.TryAdd(t.OsThreadId, (t, f));
            return map;
        }).ToList();
        var rows = new List<SeriesThread>();
        foreach (uint os in perDump.SelectMany(m => m.Keys).Distinct().Order())
        {
            var cells = new List<SeriesCell>();
            (ThreadRef Ref, HangFinding Finding)? before = null;
            int? managed = null;
            foreach (var dump in perDump)
            {
                (ThreadRef Ref, HangFinding Finding)? now = dump.TryGetValue(os, out var found) ? found : null;
                managed ??= now?.Ref.ManagedThreadId;
                bool? same = before is { } b && now is { } n ? Difference(b.Ref, b.Finding, n.Ref, n.Finding) is null : null;
                cells.Add(new SeriesCell(now is { } w ? Wording(w.Ref) : null, same));
                before = now;
            }
            rows.Add(new SeriesThread(os, managed, cells));
        }
        return rows;
    }

    private static string Wording(ThreadRef t) => t.Frame is { } frame ? $"{frame}: {t.Role}" : t.Role;
}
