using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Async methods deadlocked on SemaphoreSlims: semaphores at count 0 whose queued waiters are async methods, each of
/// which (by its own code, <see cref="AwaitSites"/>) awaited another of these semaphores at an earlier await than the
/// one it is suspended at, in a cycle. No thread is involved, so no stack shows it; a semaphore records no owner, so the
/// holding is read from the code and said to be.
/// </summary>
internal sealed class AsyncDeadlocks : IHangVerdict
{
    public bool InWatch => false;

    public IEnumerable<HangFinding> Find(WaitGraph graph, HangScene scene)
    {
        using var images = new LoadedModuleImages(scene.Target);
        return Find(scene.Target, scene.Waitables.Semaphores, images, scene.Naming, scene.Cancellation).ToList();
    }

    /// <summary>Semaphores examined: a heap with more at count 0 with waiters is far past one hang.</summary>
    public const int MaxSemaphores = 4096;

    public static IEnumerable<HangFinding> Find(Target target, IEnumerable<ClrObject> semaphores, LoadedModuleImages images, Func<IReadOnlySet<ulong>, LockNames> names, CancellationToken cancellation)
    {
        var stuck = new Dictionary<ulong, SemaphoreState>();
        foreach (ClrObject s in semaphores)
        {
            cancellation.ThrowIfCancellationRequested();
            if (stuck.Count >= MaxSemaphores)
                break;
            SemaphoreState state = SemaphoreState.Read(s);
            if (state.Count == 0 && state.AsyncWaiters.Any(w => w.Waiter is not null))
                stuck[s.Address] = state;
        }
        if (stuck.Count == 0)
            yield break;

        var sites = new AwaitSites(images);
        // Every waiting method, the semaphore it waits for, and the stuck semaphores its code awaited before.
        var methods = new List<(AsyncWaiter Waiter, ulong WaitsFor, List<(ulong Semaphore, AwaitSites.Site Site)> Holds, AwaitSites.Site? WaitSite)>();
        foreach ((ulong address, SemaphoreState state) in stuck)
            foreach ((ulong _, AsyncWaiter? waiter) in state.AsyncWaiters)
            {
                if (waiter is null)
                    continue;
                IReadOnlyList<AwaitSites.Site> awaits = sites.For(waiter.StateMachineType);
                var holds = new List<(ulong, AwaitSites.Site)>();
                foreach (AwaitSites.Site site in awaits.Where(a => waiter.State is int now && a.State < now))
                    if (Resolve(target.Runtime!, waiter, site) is ulong held && held != address && stuck.ContainsKey(held) && !holds.Any(h => h.Item1 == held))
                        holds.Add((held, site));
                methods.Add((waiter, address, holds, awaits.FirstOrDefault(a => a.State == waiter.State)));
            }

        IReadOnlyList<uint> Blockers(uint m) =>
            Enumerable.Range(0, methods.Count).Where(o => o != m && methods[o].Holds.Any(h => h.Semaphore == methods[(int)m].WaitsFor)).Select(o => (uint)o).ToList();
        var nodes = Enumerable.Range(0, methods.Count).Select(i => (uint)i).ToList();
        foreach (IReadOnlyList<uint> knot in CycleFinder.Knots(nodes, Blockers))
        {
            IReadOnlyList<uint> cycle = CycleFinder.OrderedCycle(knot, Blockers);
            var involved = cycle.Select(i => methods[(int)i].WaitsFor).ToHashSet();
            LockNames naming = names(involved);
            yield return Build(cycle.Select(i => methods[(int)i]).ToList(), stuck, naming);
        }
    }

    private static HangFinding Build(List<(AsyncWaiter Waiter, ulong WaitsFor, List<(ulong Semaphore, AwaitSites.Site Site)> Holds, AwaitSites.Site? WaitSite)> cycle,
        Dictionary<ulong, SemaphoreState> stuck, LockNames names)
    {
        var evidence = new List<Markup>();
        var steps = new List<HangCycleStep>();
        var locks = new List<LockState>();
        for (int i = 0; i < cycle.Count; i++)
        {
            var (waiter, waitsFor, holds, waitSite) = cycle[i];
            var next = cycle[(i + 1) % cycle.Count];
            var previous = cycle[(i + cycle.Count - 1) % cycle.Count];
            (ulong Semaphore, AwaitSites.Site Site) held = holds.FirstOrDefault(h => h.Semaphore == previous.WaitsFor);
            SemaphoreState state = stuck[waitsFor];
            var lockState = new LockState(waitsFor, HangNames.SemaphoreSlim, LockKindName.Semaphore, []) { Detail = state.Detail };
            if (!locks.Any(l => l.Address == waitsFor))
                locks.Add(lockState);
            MarkupBuilder line = Markup.Line().Text($"{waiter.Method} (state machine ").Object(waiter.Box).Text($", suspended at await {waiter.State})");
            if (held.Semaphore != 0)
                line.Text($" took {names.Name(lockState with { Address = held.Semaphore })} ").Object(held.Semaphore).Text($" at its await {held.Site.State},");
            line.Text($" awaits {names.Name(lockState)} ").Object(waitsFor).Text($" ({state.Detail}), taken by {next.Waiter.Method}");
            evidence.Add(line);
            steps.Add(new HangCycleStep
            {
                Method = waiter.Method,
                StateMachine = waiter.Box,
                Holds = held.Semaphore == 0 ? null : held.Semaphore,
                WaitsFor = waitsFor,
                Frame = waitSite is { } ws ? $"await {ws.FieldType.Split('.').Last()}.{ws.Field}.WaitAsync()" : null,
            });
        }
        evidence.Add(Markup.Text("a SemaphoreSlim records no owner: that each method holds the semaphore it awaited earlier is read from its code (its MoveNext awaits it at a lower await number than the one it is suspended at), not from memory"));
        evidence.Add(Markup.Text("no thread is blocked: the methods are suspended, their continuations queued in the semaphores' waiter lists, and only a Release from one of them would wake another"));
        string chain = string.Join(" -> ", cycle.Select(c => c.Waiter.Method)) + $" -> {cycle[0].Waiter.Method}";
        return new HangFinding
        {
            Kind = HangDetector.AsyncDeadlock,
            Title = $"Async deadlock: {cycle.Count} async methods wait for each other's SemaphoreSlim: {chain}",
            Summary = $"Each async method is suspended in WaitAsync on a SemaphoreSlim at count 0 that the next one took at an earlier await and has not released; " +
                      "none of them can resume, and no thread shows it (nothing is blocked, the work just never completes).",
            Evidence = evidence,
            Advice = HangAdvice.AsyncDeadlock,
            Locks = locks.Select(names.Describe).ToList(),
            Cycle = steps,
        };
    }

    /// <summary>The semaphore a site's field holds for this method: a static, a field of the method's object (&lt;&gt;4__this), or a hoisted local of the state machine.</summary>
    private static ulong? Resolve(ClrRuntime runtime, AsyncWaiter waiter, AwaitSites.Site site)
    {
        try
        {
            if (site.IsStatic)
            {
                ClrModule? module = waiter.StateMachineType.Module;
                ClrType? owner = module is null ? null : runtime.Heap.GetTypeByName(module, site.FieldType);
                ClrAppDomain? domain = runtime.AppDomains.FirstOrDefault();
                if (owner?.GetStaticFieldByName(site.Field) is { } field && domain is not null && field.IsInitialized(domain))
                    return field.ReadObject(domain).Address;
                return null;
            }
            ClrObject box = runtime.Heap.GetObject(waiter.Box);
            ClrValueType machine = box.ReadValueTypeField(HangNames.StateMachine);
            if (site.FieldType == waiter.StateMachineType.Name)
                return machine.ReadObjectField(site.Field).Address;
            ClrObject self = machine.ReadObjectField("<>4__this");
            return self.IsNull ? null : FieldReader.Object(self, site.Field).Address;
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return null;
        }
    }
}
