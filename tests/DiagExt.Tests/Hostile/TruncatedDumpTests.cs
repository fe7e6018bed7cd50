using DiagExt.Core.Native.Minidump;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hostile;

/// <summary>
/// Dumps cut short at many offsets (inside the header, the stream directory, each stream, the memory; for a core
/// inside the program headers, the notes and the memory): each is one line naming the truncation, exit code 2.
/// The file is cut in place from the longest length down, so a 180 MB core is copied once.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class TruncatedDumpTests
{
    private static void CutAndCheck(string source, string name, IEnumerable<long> offsets, string[] command)
    {
        string copy = Path.Combine(Repo.WorkDirectory, "hostile", name);
        Directory.CreateDirectory(Path.GetDirectoryName(copy)!);
        File.Copy(source, copy, overwrite: true);
        long length = new FileInfo(source).Length;
        var cuts = offsets.Where(o => o >= 0 && o < length).Distinct().OrderDescending().ToList();
        int truncatedSaid = 0;
        foreach (long offset in cuts)
        {
            using (var file = new FileStream(copy, FileMode.Open, FileAccess.Write))
                file.SetLength(offset);
            Diagext.Result result = CliContract.RunInProcess($"{name} cut at {offset}", [command[0], copy, .. command[1..]]);
            Assert.That(result.ExitCode, Is.EqualTo(2), $"{name} cut at {offset} of {length} was analysed as if whole");
            // Fewer than 4 bytes hold no signature: "not a dump file" is all anyone can say.
            if (offset >= 4)
                Assert.That(result.Stderr, Does.Contain("truncated").Or.Contain("shorter than"), $"{name} cut at {offset}");
            truncatedSaid++;
        }
        TestContext.Out.WriteLine($"{name}: {cuts.Count} cuts of a {length:N0}-byte file, each one line with exit code 2");
    }

    /// <summary>Small offsets, every stream's start, middle and last byte, and evenly spread points.</summary>
    private static IEnumerable<long> MinidumpOffsets(string path, int spread)
    {
        long length = new FileInfo(path).Length;
        using MinidumpFile dump = MinidumpFile.Open(path);
        long required = dump.RequiredFileLength();
        IEnumerable<long> streams = dump.MemoryRanges.Take(8).SelectMany(r => new[] { r.FileOffset, r.FileOffset + (long)r.Size / 2 });
        return new long[] { 0, 1, 4, 8, 12, 16, 31, 32, 33, 64, 100 }
            .Concat(streams)
            .Concat(Enumerable.Range(1, spread).Select(i => required * i / (spread + 1)))
            .Append(required - 1)
            .Where(o => o < required && o < length);
    }

    /// <summary>
    /// Every shared Windows dump there is, not a list that must be kept in step with the folder; without the folder,
    /// one case that is skipped with the reason (no case at all would hide the test).
    /// </summary>
    public static IEnumerable<TestCaseData> SharedDumps() =>
        Repo.HasSharedDumps
            ? Directory.EnumerateFiles(Repo.SharedWindowsDumps, "*.dmp").Select(Path.GetFileName).Order(StringComparer.Ordinal).Select(f => new TestCaseData(f))
            : [new TestCaseData("(no shared dumps)").Ignore(Repo.NoSharedDumps)];

    [TestCaseSource(nameof(SharedDumps))]
    public void Shared_windows_dump_cut_anywhere(string file)
    {
        string path = Path.Combine(Repo.SharedWindowsDumps, file);
        CutAndCheck(path, $"cut-{file}", MinidumpOffsets(path, 24), ["analyze", "--json"]);
    }

    [Test]
    public void Wine_loader_lock_dump_cut_anywhere()
    {
        WineDump dump = WineDumpMaker.Dump("x86_64", "spin");
        CutAndCheck(dump.Path, "cut-loaderlock-spin.dmp", MinidumpOffsets(dump.Path, 24), ["loaderlock", "--json"]);
    }

    [Test]
    public void Createdump_core_cut_anywhere()
    {
        string core = DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core");
        long length = new FileInfo(core).Length;
        long[] offsets = [0, 1, 4, 16, 52, 63, 64, 65, 120, 1000, 4096, 10_000, 65_536, 100_000, 1 << 20, 10 << 20, 50_000_000, .. Enumerable.Range(1, 12).Select(i => length * i / 13), length - 4096, length - 1];
        CutAndCheck(core, "cut-dictcycle.core", offsets, ["dictcycle", "--json"]);
    }
}
