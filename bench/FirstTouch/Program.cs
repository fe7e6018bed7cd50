// FirstTouch: what this machine charges for the first write to fresh memory, against a rewrite of the same memory.
// dictcycle copies a big table's arrays into fresh arrays (the 5 M table: about 110 MB); on a VM each first write to a
// page may trap to the hypervisor, so the same build's analyze/bare-walk ratio moves with the host (bench/RESULTS.md).
// Prints per MB: a plain first write, the first write after madvise(MADV_POPULATE_WRITE) (what Heap/BigArrays does),
// and a rewrite; the last line is for bench/run.sh.
//
// usage: FirstTouch [MB]   (default 64; each measurement takes a new array, kept alive so none is memory used before)
using System.Diagnostics;
using System.Runtime.InteropServices;

int megabytes = args.Length > 0 && int.TryParse(args[0], out int m) && m is > 0 and <= 4096 ? m : 64;
if (args.Length > 0 && megabytes.ToString() != args[0])
{
    Console.Error.WriteLine("usage: FirstTouch [MB], MB from 1 to 4096");
    return 2;
}
int length = megabytes << 20;
var kept = new List<byte[]>();
double Best(Func<double> measure) => Enumerable.Range(0, 3).Min(_ => measure());

double plain = Best(() => FirstWrite(populate: false).Write);
var populated = Enumerable.Range(0, 3).Select(_ => FirstWrite(populate: true)).MinBy(r => r.Populate + r.Write);
double rewrite = Best(() =>
{
    byte[] array = kept[^1];
    long start = Stopwatch.GetTimestamp();
    Fill(array, 2);
    return Stopwatch.GetElapsedTime(start).TotalMilliseconds;
});
Console.WriteLine($"first write of fresh memory: {plain / megabytes:F2} ms per MB ({plain / megabytes / 256 * 1000:F1} us a 4 KB page), fastest of 3 x {megabytes} MB");
Console.WriteLine($"after madvise(MADV_POPULATE_WRITE): {populated.Populate / megabytes:F2} ms per MB to populate + {populated.Write / megabytes:F2} to write{(populated.Supported ? "" : " (not supported here: the write alone)")}");
Console.WriteLine($"a rewrite of the same memory: {rewrite / megabytes:F2} ms per MB");
Console.WriteLine($"FIRST_TOUCH_MS_PER_MB {plain / megabytes:F3} {(populated.Populate + populated.Write) / megabytes:F3} {rewrite / megabytes:F3}");
return 0;

(double Populate, double Write, bool Supported) FirstWrite(bool populate)
{
    byte[] array = GC.AllocateUninitializedArray<byte>(length);
    kept.Add(array);
    long start = Stopwatch.GetTimestamp();
    bool supported = populate && Populate(array);
    double populating = Stopwatch.GetElapsedTime(start).TotalMilliseconds;
    start = Stopwatch.GetTimestamp();
    Fill(array, 1);
    return (populating, Stopwatch.GetElapsedTime(start).TotalMilliseconds, supported);
}

// Sequential 4-byte stores, as the table reader writes its arrays (a memset would be the kernel's or libc's speed instead).
static void Fill(byte[] array, int value)
{
    Span<int> ints = MemoryMarshal.Cast<byte, int>(array.AsSpan());
    for (int i = 0; i < ints.Length; i++)
        ints[i] = value + i;
}

static unsafe bool Populate(byte[] array)
{
    fixed (byte* start = array)
    {
        ulong first = ((ulong)start + 4095) & ~4095UL, end = ((ulong)start + (ulong)array.Length) & ~4095UL;
        try
        {
            return end > first && madvise((nint)first, (nuint)(end - first), 23) == 0;
        }
        catch (Exception e) when (e is DllNotFoundException or EntryPointNotFoundException)
        {
            return false;
        }
    }
}

[DllImport("libc")]
static extern int madvise(nint address, nuint length, int advice);
