using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>The target's threads by each id a lock may record: OS id (Lock), managed id (ReaderWriterLockSlim), runtime Thread address (sync blocks).</summary>
internal sealed class ThreadIndex
{
    private readonly Dictionary<uint, TargetThread> _byOsId = [];
    private readonly Dictionary<int, TargetThread> _byManagedId = [];
    private readonly Dictionary<ulong, TargetThread> _byAddress = [];

    public ThreadIndex(IReadOnlyList<TargetThread> threads)
    {
        foreach (TargetThread t in threads)
        {
            _byOsId.TryAdd(t.OsThreadId, t);
            if (t.ClrThread is { } clr)
            {
                if (clr.ManagedThreadId > 0)
                    _byManagedId.TryAdd(clr.ManagedThreadId, t);
                if (clr.Address != 0)
                    _byAddress.TryAdd(clr.Address, t);
            }
        }
    }

    public TargetThread? ByOsId(uint id) => _byOsId.GetValueOrDefault(id);

    public TargetThread? ByManagedId(int id) => _byManagedId.GetValueOrDefault(id);

    public TargetThread? ByRuntimeAddress(ulong address) => _byAddress.GetValueOrDefault(address);
}
