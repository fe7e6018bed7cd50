using System.Globalization;
using System.Runtime.InteropServices;
using DiagExt.Core.Targets.Live;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Live;

/// <summary>
/// <see cref="ProcMemory"/> on this test process's own memory: what a byte array holds, nothing at address 0, and a
/// read running off the end of a mapping stops at its end (the heap walk's 1 MB blocks rely on the short count).
/// </summary>
[TestFixture]
[Category(TestKind.Unit)]
public class ProcMemoryTests
{
    [Test]
    public void Reads_what_an_array_holds()
    {
        byte[] data = [.. Enumerable.Range(0, 4096).Select(i => (byte)(i * 7))];
        GCHandle pin = GCHandle.Alloc(data, GCHandleType.Pinned);
        try
        {
            using ProcMemory memory = ProcMemory.TryOpen(Environment.ProcessId)!;
            var read = new byte[data.Length];
            Assert.That(memory.ReadMemory((ulong)pin.AddrOfPinnedObject(), read), Is.EqualTo(data.Length));
            Assert.That(read, Is.EqualTo(data));
        }
        finally
        {
            pin.Free();
        }
    }

    [Test]
    public void Reads_nothing_where_nothing_is_mapped()
    {
        using ProcMemory memory = ProcMemory.TryOpen(Environment.ProcessId)!;
        Assert.That(memory.ReadMemory(0, new byte[64]), Is.Zero);
        Assert.That(memory.ReadMemory(ulong.MaxValue - 8, new byte[64]), Is.Zero);
    }

    [Test]
    public void Stops_at_the_end_of_a_mapping()
    {
        // A readable mapping with nothing mapped right after it.
        var maps = File.ReadAllLines("/proc/self/maps").Select(Parse).ToList();
        var (_, end, _) = maps.First(m => m.Readable && !maps.Any(n => n.Start == m.End));
        using ProcMemory memory = ProcMemory.TryOpen(Environment.ProcessId)!;
        Assert.That(memory.ReadMemory(end - 16, new byte[64]), Is.EqualTo(16));
    }

    [Test]
    public void Is_not_opened_for_a_process_that_does_not_exist() => Assert.That(ProcMemory.TryOpen(int.MaxValue), Is.Null);

    private static (ulong Start, ulong End, bool Readable) Parse(string line)
    {
        string[] parts = line.Split(' ', 3);
        string[] range = parts[0].Split('-');
        return (ulong.Parse(range[0], NumberStyles.HexNumber), ulong.Parse(range[1], NumberStyles.HexNumber), parts[1][0] == 'r');
    }
}
