using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// ReaderWriterLockSlim holders: the write and upgrade owners are managed thread ids in the object (-1 when free);
/// readers are only counted per thread, in the [ThreadStatic] t_rwc list of ReaderWriterCount (lock id, reader count),
/// read here through each thread's thread statics, once for all locks.
/// </summary>
internal sealed class RwLockOwners(IReadOnlyList<TargetThread> threads)
{
    /// <summary>Entries followed in one thread's list: one per lock the thread has used, recycled; a longer list is corrupt.</summary>
    public const int MaxCountsPerThread = 256;

    private Dictionary<uint, List<(long LockId, int Readers)>>? _readCounts;

    public LockState Read(ClrObject obj, ThreadIndex index)
    {
        var holders = new List<(uint, HoldMode)>();
        var unknown = new List<string>();
        void Owner(string[] field, HoldMode mode)
        {
            int id = FieldReader.Int(obj, field) ?? -1;
            if (id <= 0)
                return;
            if (index.ByManagedId(id) is { } t)
                holders.Add((t.OsThreadId, mode));
            else
                unknown.Add($"managed thread {id} (no such thread) as {mode.ToString().ToLowerInvariant()} owner");
        }
        Owner(HangNames.WriteOwner, HoldMode.Write);
        Owner(HangNames.UpgradeOwner, HoldMode.Upgradeable);
        long? lockId = FieldReader.Long(obj, HangNames.LockId);
        uint owners = FieldReader.UInt(obj, HangNames.Owners) ?? 0;
        int readers = (int)(owners & 0x0FFFFFFF); // MAX_READER mask: the count of read (and upgradeable) holders
        if (lockId is long id)
            foreach ((uint os, List<(long LockId, int Readers)> counts) in ReadCounts(obj.Type))
                if (counts.Any(c => c.LockId == id && c.Readers > 0) && !holders.Any(h => h.Item1 == os))
                    holders.Add((os, HoldMode.Read));
        return new LockState(obj.Address, obj.Type?.Name ?? HangNames.ReaderWriterLockSlim, LockKindName.RwLock, holders)
        {
            UnknownOwners = unknown,
            Detail = $"{readers} reader{(readers == 1 ? "" : "s")} counted{((owners & 0x80000000) != 0 ? ", write held" : "")}{((owners & 0x40000000) != 0 ? ", writers waiting" : "")}{((owners & 0x20000000) != 0 ? ", an upgrade waiting" : "")}",
        };
    }

    private Dictionary<uint, List<(long LockId, int Readers)>> ReadCounts(ClrType? rwlockType)
    {
        if (_readCounts is not null)
            return _readCounts;
        _readCounts = [];
        ClrThreadStaticField? field = rwlockType?.ThreadStaticFields.FirstOrDefault(f => f.Name == HangNames.ReaderCounts);
        if (field is null)
            return _readCounts;
        foreach (TargetThread thread in threads)
        {
            if (thread.ClrThread is not { } clr)
                continue;
            var counts = new List<(long, int)>();
            ClrObject node = Safe(() => field.ReadObject(clr));
            var seen = new HashSet<ulong>();
            for (int n = 0; !node.IsNull && n < MaxCountsPerThread && seen.Add(node.Address); n++)
            {
                if (FieldReader.Long(node, HangNames.CountLockId) is long id && FieldReader.Int(node, HangNames.CountReaders) is int readers)
                    counts.Add((id, readers));
                node = FieldReader.Object(node, HangNames.CountNext);
            }
            if (counts.Count > 0)
                _readCounts[thread.OsThreadId] = counts;
        }
        return _readCounts;
    }

    private static ClrObject Safe(Func<ClrObject> read)
    {
        try
        {
            return read();
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException or NullReferenceException)
        {
            return default;
        }
    }
}
