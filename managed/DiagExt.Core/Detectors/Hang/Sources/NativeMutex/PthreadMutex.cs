using DiagExt.Core.Native;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// A glibc pthread_mutex_t as x86-64 lays it out (struct __pthread_mutex_s): __lock (int, +0), __count (+4), __owner
/// (the owner's TID, +8), __nusers (+12), __kind (+16). Read only when every field says "a locked mutex": __kind a
/// valid kind (PTHREAD_MUTEX_{TIMED,RECURSIVE,ERRORCHECK,ADAPTIVE}_NP, 0-3, with only the robust, priority-inherit,
/// priority-protect, process-shared and elision bits beside it), __lock non-zero and, for an ordinary mutex, 1 or 2
/// (locked, contended), for a robust or PI one the owner's TID, and __owner a thread of the process.
/// </summary>
internal sealed record PthreadMutex(ulong Address, int Lock, uint Count, uint Owner, uint Users, int Kind)
{
    public const int Size = 40;

    public const int Recursive = 1;

    private const int KindMask = 3, Robust = 16, PriorityInherit = 32, PriorityProtect = 64, FlagBits = 0x3FF;

    /// <summary>The priority ceiling of a priority-protect mutex lives in the top bits of __kind.</summary>
    private const uint CeilingBits = 0xFFF80000;

    /// <summary>The futex word's flags a robust or PI mutex sets beside the owner's TID (FUTEX_WAITERS, FUTEX_OWNER_DIED).</summary>
    private const uint FutexTidMask = 0x3FFFFFFF;

    public static PthreadMutex? Read(Target target, ulong address)
    {
        byte[] bytes = new byte[Size];
        if (address == 0 || (address & 3) != 0 || target.ReadMemory(address, bytes) != Size)
            return null;
        return new PthreadMutex(address, (int)BinaryReads.U32(bytes, 0), BinaryReads.U32(bytes, 4), BinaryReads.U32(bytes, 8), BinaryReads.U32(bytes, 12), (int)BinaryReads.U32(bytes, 16));
    }

    /// <summary>Whether the fields are those of a locked mutex owned by a thread of <paramref name="threads"/>.</summary>
    public bool IsLockedBy(ThreadIndex threads) => HasValidKind && IsLocked && Owner != 0 && threads.ByOsId(Owner) is not null;

    public bool HasValidKind
    {
        get
        {
            uint kind = (uint)Kind;
            uint allowed = FlagBits | ((kind & PriorityProtect) != 0 ? CeilingBits : 0);
            return (kind & ~allowed) == 0;
        }
    }

    public bool IsRecursive => (Kind & KindMask) == Recursive;

    private bool IsLocked => (Kind & (Robust | PriorityInherit)) != 0
        ? ((uint)Lock & FutexTidMask) == Owner
        : Lock is 1 or 2;

    /// <summary>"normal", "recursive", "error-checking", "adaptive", with "robust"/"priority-inherit" beside it.</summary>
    public string KindText
    {
        get
        {
            string name = (Kind & KindMask) switch
            {
                0 => "normal",
                1 => "recursive",
                2 => "error-checking",
                _ => "adaptive",
            };
            if ((Kind & Robust) != 0)
                name += ", robust";
            if ((Kind & PriorityInherit) != 0)
                name += ", priority-inherit";
            return name;
        }
    }
}
