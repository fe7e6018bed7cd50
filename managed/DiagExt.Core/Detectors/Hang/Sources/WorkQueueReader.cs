using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// The managed thread pool's queued work (.NET 6+): ThreadPool.s_workQueue's global queues (workItems,
/// highPriorityWorkItems, lowPriorityWorkItems, the assignable queues of .NET 8+), each a ConcurrentQueue whose
/// segments keep an item in a slot until it is dequeued, and the per-thread work-stealing queues
/// (WorkStealingQueueList._queues, each an m_array whose taken slots are nulled). Counted as SOS's threadpool -wi lists them.
/// On .NET Framework the pool is native: null, and the caller says so.
/// </summary>
internal static class WorkQueueReader
{
    /// <summary>Most segments followed in one queue and slots counted in all: a corrupt chain must end.</summary>
    public const int MaxSegments = 4096;
    public const int MaxItems = 4_000_000;

    public sealed record Queued(int Count, IReadOnlyList<(string Type, int Count)> ByType, IReadOnlySet<ulong> Items);

    public static Queued? Read(ClrRuntime runtime, CancellationToken cancellation)
    {
        ClrAppDomain? domain = runtime.AppDomains.FirstOrDefault() ?? runtime.SharedDomain;
        ClrModule bcl = runtime.BaseClassLibrary;
        if (domain is null || bcl.GetTypeByName(HangNames.ThreadPool) is not { } poolType)
            return null;
        ClrObject queue = StaticObject(poolType, HangNames.WorkQueue, domain);
        if (queue.IsNull)
            return null;
        var types = new Dictionary<string, int>(StringComparer.Ordinal);
        var items = new HashSet<ulong>();
        int count = 0;
        void Item(ClrObject item)
        {
            if (item.IsNull || count >= MaxItems)
                return;
            count++;
            items.Add(item.Address);
            string name = item.Type?.Name ?? "?";
            types[name] = types.GetValueOrDefault(name) + 1;
        }
        foreach (string name in HangNames.GlobalQueues)
            CountConcurrentQueue(FieldReader.Object(queue, name), Item, cancellation);
        ClrObject assignable = FieldReader.Object(queue, HangNames.AssignableQueues);
        if (assignable.IsValid && assignable.Type?.IsArray == true)
        {
            ClrArray array = assignable.AsArray();
            for (int i = 0; i < Math.Min(array.Length, 1024); i++)
                CountConcurrentQueue(array.GetObjectValue(i), Item, cancellation);
        }
        if (bcl.GetTypeByName(HangNames.WorkStealingQueueList) is { } listType && StaticObject(listType, [HangNames.LocalQueues], domain) is { IsNull: false } locals && locals.Type?.IsArray == true)
        {
            ClrArray queues = locals.AsArray();
            for (int q = 0; q < Math.Min(queues.Length, 65_536); q++)
            {
                ClrObject local = FieldReader.Object(queues.GetObjectValue(q), HangNames.LocalQueueArray);
                if (local.IsNull || local.Type?.IsArray != true)
                    continue;
                ClrArray slots = local.AsArray();
                for (int i = 0; i < Math.Min(slots.Length, MaxItems); i++)
                    Item(slots.GetObjectValue(i));
            }
        }
        return new Queued(count, types.OrderByDescending(t => t.Value).ThenBy(t => t.Key, StringComparer.Ordinal).Select(t => (t.Key, t.Value)).ToList(), items);
    }

    private static void CountConcurrentQueue(ClrObject queue, Action<ClrObject> item, CancellationToken cancellation)
    {
        ClrObject segment = FieldReader.Object(queue, HangNames.QueueHead);
        var seen = new HashSet<ulong>();
        for (int n = 0; !segment.IsNull && n < MaxSegments && seen.Add(segment.Address); n++)
        {
            cancellation.ThrowIfCancellationRequested();
            ClrObject slots = FieldReader.Object(segment, HangNames.SegmentSlots);
            if (!slots.IsNull && slots.Type?.IsArray == true)
            {
                ClrArray array = slots.AsArray();
                ClrInstanceField? itemField = array.Type.ComponentType?.GetFieldByName(HangNames.SlotItem);
                if (itemField is not null)
                    for (int i = 0; i < Math.Min(array.Length, MaxItems); i++)
                        item(array.GetStructValue(i).ReadObjectField(itemField));
            }
            segment = FieldReader.Object(segment, HangNames.SegmentNext);
        }
    }

    private static ClrObject StaticObject(ClrType type, string[] names, ClrAppDomain domain)
    {
        foreach (string name in names)
            if (type.GetStaticFieldByName(name) is { } field)
            {
                try
                {
                    return field.IsInitialized(domain) ? field.ReadObject(domain) : default;
                }
                catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
                {
                    return default;
                }
            }
        return default;
    }
}
