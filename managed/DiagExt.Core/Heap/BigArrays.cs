using System.Runtime.InteropServices;

namespace DiagExt.Core.Heap;

/// <summary>
/// Arrays of millions of elements (a big table's image and its sort keys), with their pages faulted in by one call.
/// The GC hands a large array fresh pages from the OS, and on a VM each first touch of a 4 KB page is a trap to the
/// hypervisor: 24 MB read into a fresh int[] took 80-89 ms here, into a reused one 2-4 ms, and after one
/// madvise(MADV_POPULATE_WRITE) 4 ms + 3 ms (bench/RESULTS.md). Linux 5.14+; elsewhere, or when the call fails, the
/// pages are touched one by one as before: the call changes only when they are, never the array's contents.
/// </summary>
internal static class BigArrays
{
    /// <summary>Below this the pages are few and the call costs more than it saves.</summary>
    private const long MinBytes = 1 << 20;

    private const int MadvPopulateWrite = 23;

    private static bool _unsupported = !OperatingSystem.IsLinux();

    /// <summary>An array whose every element the caller writes before reading it.</summary>
    public static T[] Uninitialized<T>(int length) where T : unmanaged => Populated(GC.AllocateUninitializedArray<T>(length));

    private static unsafe T[] Populated<T>(T[] array) where T : unmanaged
    {
        long bytes = (long)array.Length * sizeof(T);
        if (bytes < MinBytes || _unsupported)
            return array;
        fixed (T* start = array)
        {
            // Whole pages inside the array only: the pages at its ends are shared with other objects.
            ulong first = ((ulong)start + 4095) & ~4095UL, end = ((ulong)start + (ulong)bytes) & ~4095UL;
            try
            {
                if (end > first && madvise((nint)first, (nuint)(end - first), MadvPopulateWrite) != 0)
                    _unsupported = true; // EINVAL before 5.14: not asked again
            }
            catch (Exception e) when (e is DllNotFoundException or EntryPointNotFoundException)
            {
                _unsupported = true; // a C library not found as "libc" (musl): the pages are touched as before
            }
        }
        return array;
    }

    [DllImport("libc", EntryPoint = "madvise")]
    private static extern int madvise(nint address, nuint length, int advice);
}
