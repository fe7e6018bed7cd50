using DiagExt.Core.Heap;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Heap;

/// <summary>
/// A big array comes with its pages already faulted in: writing every page of it afterwards costs the writing thread
/// (almost) no page fault, where a plain array of the same size costs one a page. Counted per thread
/// (/proc/thread-self/stat), so other tests running beside this one do not count.
/// </summary>
[TestFixture]
[Category(TestKind.Unit)]
public class BigArraysTests
{
    private const int Length = 3 << 20; // 24 MB of longs: past the threshold, 6,144 pages

    private const int Pages = Length * sizeof(long) / 4096;

    [Test]
    public void Writing_a_big_array_faults_almost_no_page_where_a_plain_one_faults_each()
    {
        if (!OperatingSystem.IsLinux() || Environment.OSVersion.Version < new Version(5, 14))
            Assert.Inconclusive("MADV_POPULATE_WRITE needs Linux 5.14 or later");
        for (int round = 0; round < 3; round++)
        {
            long plain = FaultsWriting(GC.AllocateUninitializedArray<long>(Length));
            long big = FaultsWriting(BigArrays.Uninitialized<long>(Length));
            TestContext.Out.WriteLine($"round {round}: {plain} faults writing a plain array, {big} a big one ({Pages} pages)");
            // A round whose plain array the GC gave used pages proves nothing about the big one: only fresh pages fault.
            if (plain < Pages / 2)
                continue;
            Assert.That(big, Is.LessThan(Pages / 10));
            return;
        }
        Assert.Inconclusive("the GC gave used pages to every plain array: nothing to compare with");
    }

    [Test]
    public void What_is_written_is_read_back_and_small_arrays_are_plain()
    {
        long[] big = BigArrays.Uninitialized<long>(Length);
        for (int i = 0; i < big.Length; i++)
            big[i] = i * 7L;
        Assert.That(big, Has.Length.EqualTo(Length));
        Assert.That(Enumerable.Range(0, Length).All(i => big[i] == i * 7L));
        Assert.That(BigArrays.Uninitialized<int>(0), Is.Empty);
        Assert.That(BigArrays.Uninitialized<byte>(5), Has.Length.EqualTo(5));
    }

    /// <summary>Minor page faults this thread takes writing one word in each page of <paramref name="array"/>.</summary>
    private static long FaultsWriting(long[] array)
    {
        long before = MinorFaults();
        for (int i = 0; i < array.Length; i += 4096 / sizeof(long))
            array[i] = 1;
        return MinorFaults() - before;
    }

    /// <summary>minflt, the 10th field of /proc/thread-self/stat (after the command name in parentheses).</summary>
    private static long MinorFaults()
    {
        string stat = File.ReadAllText("/proc/thread-self/stat");
        string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        return long.Parse(fields[7]); // fields from the 3rd (state): minflt is the 10th overall
    }
}
