using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// System.Threading.Lock (.NET 9+): not in the sync-block table; the object's _owningThreadId is the owner's OS
/// thread id (0 when free), as a .NET 10 dump shows it.
/// </summary>
internal static class LockOwner
{
    public static LockState Read(ClrObject obj, ThreadIndex threads)
    {
        uint owner = FieldReader.UInt(obj, HangNames.LockOwner) ?? 0;
        uint recursion = FieldReader.UInt(obj, HangNames.LockRecursion) ?? 0;
        var state = new LockState(obj.Address, HangNames.Lock, LockKindName.Lock, []);
        if (owner == 0)
            return state;
        return threads.ByOsId(owner) is { } thread
            ? state with { Holders = [(thread.OsThreadId, HoldMode.Owner)], Detail = recursion > 0 ? $"recursion {recursion + 1}" : null }
            : state with { UnknownOwners = [$"OS thread 0x{owner:x} (no such thread)"] };
    }
}
