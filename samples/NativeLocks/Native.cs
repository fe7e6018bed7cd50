using System.Runtime.InteropServices;

namespace NativeLocks;

/// <summary>The libc and helper-library calls the modes make.</summary>
internal static partial class Native
{
    private const string Libc = "libc.so.6";
    private const string Gate = "libnlgate.so";

    /// <summary>sizeof(pthread_mutex_t) on x86-64 and arm64 glibc is 40; 64 leaves room.</summary>
    public const int MutexBytes = 64;

    public const int RtldNow = 2;

    [LibraryImport(Libc, EntryPoint = "pthread_mutex_init")]
    public static partial int MutexInit(nint mutex, nint attributes);

    [LibraryImport(Libc, EntryPoint = "pthread_mutex_lock")]
    public static partial int MutexLock(nint mutex);

    [LibraryImport(Libc, EntryPoint = "gettid")]
    public static partial int GetTid();

    [LibraryImport(Libc, EntryPoint = "dlopen", StringMarshalling = StringMarshalling.Utf8)]
    public static partial nint DlOpen(string path, int flags);

    [LibraryImport(Gate, EntryPoint = "nl_gate")]
    public static partial nint GateAddress();

    [LibraryImport(Gate, EntryPoint = "nl_gate_take")]
    public static partial int GateTake();

    [LibraryImport(Gate, EntryPoint = "nl_constructor_entered")]
    public static partial int ConstructorEntered();

    /// <summary>A zeroed pthread_mutex_t (a default, non-recursive mutex) that is never freed.</summary>
    public static unsafe nint NewMutex()
    {
        nint mutex = (nint)NativeMemory.AllocZeroed(MutexBytes);
        if (MutexInit(mutex, 0) != 0)
            throw new InvalidOperationException("pthread_mutex_init failed");
        return mutex;
    }
}
