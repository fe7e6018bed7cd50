using DiagExt.Core.Native;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// glibc's loader locks, inside ld.so's <c>_rtld_global</c> (exported in its .dynsym, GLIBC_PRIVATE): dlopen, dlclose
/// and the running of library constructors and destructors hold <c>_dl_load_lock</c>; <c>_dl_load_write_lock</c>
/// follows it. Their offsets depend on the glibc version (the namespaces array before them changed size), so they
/// are found by shape, not by a table: the first place in <c>_rtld_global</c> where a size_t of 1 to 16
/// (<c>_dl_nns</c>, the namespaces in use; DL_NNS is 16) is followed by two recursive mutexes in a row (__kind
/// PTHREAD_MUTEX_RECURSIVE_NP, 1). The locks before it in the namespaces array (each namespace's unique-symbol-table
/// lock, also recursive) follow a pointer, not a count.
/// </summary>
internal sealed class GlibcLoaderLock
{
    public const string LoadLockName = "the loader lock (glibc _dl_load_lock)";
    public const string WriteLockName = "the loader's write lock (glibc _dl_load_write_lock)";

    /// <summary>Most bytes of _rtld_global searched: it is about 4 KiB in glibc 2.31-2.39.</summary>
    private const int MaxSearchBytes = 16 * 1024;

    private const int MaxNamespaces = 16;

    private GlibcLoaderLock(ulong rtldGlobal, int offset, string module)
    {
        RtldGlobal = rtldGlobal;
        LoadLockOffset = offset;
        Module = module;
    }

    public ulong RtldGlobal { get; }

    /// <summary>The offset of _dl_load_lock in _rtld_global (0x908 in glibc 2.36 on x86-64).</summary>
    public int LoadLockOffset { get; }

    public string Module { get; }

    public ulong LoadLock => RtldGlobal + (ulong)LoadLockOffset;

    public ulong WriteLock => LoadLock + PthreadMutex.Size;

    /// <summary>The loader locks of the target's ld.so, or null when ld.so, its symbols or a lock of that shape are not found.</summary>
    public static GlibcLoaderLock? Find(Target target, ElfModules modules)
    {
        if (modules.Symbol("ld-linux", "_rtld_global") is not { } rtld || rtld.Size < 2 * PthreadMutex.Size + 8)
            return null;
        byte[] bytes = new byte[(int)Math.Min(rtld.Size, MaxSearchBytes)];
        int read = target.ReadMemory(rtld.Address, bytes);
        return FindLoadLockOffset(bytes.AsSpan(0, read)) is int offset ? new GlibcLoaderLock(rtld.Address, offset, rtld.Module) : null;
    }

    /// <summary>The offset of _dl_load_lock in the bytes of _rtld_global: the first 8-aligned place where _dl_nns (1-16) is followed by two recursive mutexes.</summary>
    internal static int? FindLoadLockOffset(ReadOnlySpan<byte> bytes)
    {
        for (int offset = 8; offset + 2 * PthreadMutex.Size <= bytes.Length; offset += 8)
        {
            ulong namespaces = BinaryReads.U64(bytes, offset - 8);
            if (namespaces is >= 1 and <= MaxNamespaces && IsRecursiveMutex(bytes, offset) && IsRecursiveMutex(bytes, offset + PthreadMutex.Size))
                return offset;
        }
        return null;
    }

    /// <summary>The name of the loader lock at <paramref name="address"/>, or null for any other mutex.</summary>
    public string? NameOf(ulong address) => address == LoadLock ? LoadLockName : address == WriteLock ? WriteLockName : null;

    /// <summary>"_rtld_global+0x908 in ld-linux-x86-64.so.2".</summary>
    public string Where(ulong address) => $"_rtld_global+0x{address - RtldGlobal:x} in {Module}";

    private static bool IsRecursiveMutex(ReadOnlySpan<byte> bytes, int offset)
    {
        int kind = (int)BinaryReads.U32(bytes, offset + 16);
        uint owner = BinaryReads.U32(bytes, offset + 8);
        int lockWord = (int)BinaryReads.U32(bytes, offset);
        // An unlocked mutex has no owner; a locked one has one.
        return kind == PthreadMutex.Recursive && (lockWord == 0) == (owner == 0);
    }
}
