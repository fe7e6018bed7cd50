using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Which threads run which SynchronizationContext and TaskScheduler: each thread's Thread object (the [ThreadStatic]
/// Thread.t_currentThread, set on any thread that ever asked for its context, as SetSynchronizationContext does) and its
/// _synchronizationContext; and the scheduler of the task it executes (Task.t_currentTask). Contexts of the base type
/// (which posts to the pool) are left out. .NET only: .NET Framework keeps neither static.
/// </summary>
internal sealed class ContextThreads
{
    private readonly Dictionary<ulong, List<TargetThread>> _byContext = [];
    private readonly Dictionary<ulong, List<TargetThread>> _byScheduler = [];

    public ContextThreads(Target target)
    {
        ClrRuntime runtime = target.Runtime!;
        ClrThreadStaticField? currentThread = StaticOf(runtime, HangNames.Thread, HangNames.CurrentThread);
        ClrThreadStaticField? currentTask = StaticOf(runtime, HangNames.Task, HangNames.CurrentTask);
        foreach (TargetThread thread in target.Threads)
        {
            if (thread.ClrThread is not { } clr)
                continue;
            ClrObject context = FieldReader.Object(Read(currentThread, clr), HangNames.ThreadContext);
            if (!context.IsNull && context.Type?.Name != HangNames.SynchronizationContext)
                Add(_byContext, context.Address, thread);
            ClrObject scheduler = FieldReader.Object(Read(currentTask, clr), HangNames.TaskScheduler);
            if (!scheduler.IsNull)
                Add(_byScheduler, scheduler.Address, thread);
        }
    }

    /// <summary>The threads whose current context (or running task's scheduler) is <paramref name="context"/>.</summary>
    public IReadOnlyList<TargetThread> Running(ulong context, bool scheduler) =>
        (scheduler ? _byScheduler : _byContext).GetValueOrDefault(context) ?? [];

    /// <summary>Every context some thread runs, the given thread's own first.</summary>
    public IEnumerable<ulong> ContextsFrom(uint first) =>
        _byContext.OrderBy(c => c.Value.Any(t => t.OsThreadId == first) ? 0 : 1).ThenBy(c => c.Key).Select(c => c.Key);

    private static void Add(Dictionary<ulong, List<TargetThread>> map, ulong key, TargetThread thread)
    {
        if (!map.TryGetValue(key, out List<TargetThread>? list))
            map[key] = list = [];
        list.Add(thread);
    }

    /// <summary>A CoreLib thread static; null when the runtime's own data is unreadable (a corrupt core: ClrMD throws what it hits).</summary>
    private static ClrThreadStaticField? StaticOf(ClrRuntime runtime, string type, string field)
    {
        try
        {
            return runtime.Heap.GetTypeByName(runtime.BaseClassLibrary, type)?.ThreadStaticFields.FirstOrDefault(f => f.Name == field);
        }
        catch (Exception e) when (CorruptType.Is(e))
        {
            return null;
        }
    }

    private static ClrObject Read(ClrThreadStaticField? field, ClrThread thread)
    {
        if (field is null)
            return default;
        try
        {
            return field.ReadObject(thread);
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException or NullReferenceException)
        {
            return default;
        }
    }
}
