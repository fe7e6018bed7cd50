using System.Buffers.Binary;
using DiagExt.Core.Native.Minidump;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hostile;

/// <summary>
/// Minidumps whose streams lie: each stream zeroed in turn, and the counts of the thread, thread info, module and
/// memory lists and of the directory itself set to absurd values. Findings or one line, exit code 2.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class CorruptStreamTests
{
    private static readonly uint[] Counts = [0, 1, 0x4001, 0x7FFFFFFF, 0xFFFFFFFF];

    private static string Copy(string source, string name)
    {
        string copy = Path.Combine(Repo.WorkDirectory, "hostile", name);
        Directory.CreateDirectory(Path.GetDirectoryName(copy)!);
        File.Copy(source, copy, overwrite: true);
        return copy;
    }

    private static List<(uint Type, uint Size, uint Rva)> StreamDirectory(string path)
    {
        byte[] head = File.ReadAllBytes(path);
        uint count = BinaryPrimitives.ReadUInt32LittleEndian(head.AsSpan(8)), rva = BinaryPrimitives.ReadUInt32LittleEndian(head.AsSpan(12));
        return [.. Enumerable.Range(0, (int)count).Select(i => (
            BinaryPrimitives.ReadUInt32LittleEndian(head.AsSpan((int)rva + i * 12)),
            BinaryPrimitives.ReadUInt32LittleEndian(head.AsSpan((int)rva + i * 12 + 4)),
            BinaryPrimitives.ReadUInt32LittleEndian(head.AsSpan((int)rva + i * 12 + 8))))];
    }

    private static void Patch(string path, long offset, byte[] bytes)
    {
        using var file = new FileStream(path, FileMode.Open, FileAccess.Write);
        file.Position = offset;
        file.Write(bytes);
    }

    private static IEnumerable<string> Dumps()
    {
        // The Wine dump alone still exercises every check; the real Windows ones add other writers' layouts.
        if (Repo.HasSharedDumps)
        {
            yield return Path.Combine(Repo.SharedWindowsDumps, "win11-x64-crashpad-tiny-exe.dmp");
            yield return Path.Combine(Repo.SharedWindowsDumps, "win-x86-crashpad-tiny-exe.dmp");
        }
        yield return WineDumpMaker.Dump("x86_64", "spin").Path;
    }

    [Test]
    public void Each_stream_zeroed()
    {
        int runs = 0;
        foreach (string source in Dumps())
        {
            foreach (var (type, size, rva) in StreamDirectory(source).Where(s => s.Type != 0))
            {
                // Memory streams of a full dump are big: zero their headers and first descriptors, where readers look.
                string copy = Copy(source, "zeroed-stream.dmp");
                Patch(copy, rva, new byte[Math.Min(size, 64 * 1024)]);
                Diagext.Result result = CliContract.RunInProcess($"{Path.GetFileName(source)} with stream {type} zeroed", "loaderlock", copy, "--json");
                runs++;
                TestContext.Out.WriteLine($"{Path.GetFileName(source)} stream {type} zeroed: exit {result.ExitCode} {result.Stderr.Trim()}");
            }
        }
        // Every dump here has 6 or more streams: fewer runs means the directory was misread.
        Assert.That(runs, Is.GreaterThanOrEqualTo(6 * Dumps().Count()));
    }

    [Test]
    public void Absurd_counts_in_every_list()
    {
        foreach (string source in Dumps())
        {
            var streams = StreamDirectory(source);
            foreach (var (type, _, rva) in streams.Where(s => s.Type is 3 or 4 or 5 or 9 or 17))
            {
                // ThreadInfoList keeps its count after two size fields; the others start with it (Memory64List: 8 bytes).
                long at = type == 17 ? rva + 8 : rva;
                foreach (uint count in Counts)
                {
                    string copy = Copy(source, "absurd-count.dmp");
                    Patch(copy, at, BitConverter.GetBytes(count));
                    Diagext.Result result = CliContract.RunInProcess($"{Path.GetFileName(source)} stream {type} count {count:x}", "loaderlock", copy, "--json");
                    if (count >= 0x4001)
                        Assert.That(result.Stderr, Does.Contain("claims").Or.Contain("truncated"), $"stream {type} count {count:x}");
                }
            }
            foreach (uint count in Counts.Append(0x1000u))
            {
                string copy = Copy(source, "absurd-directory.dmp");
                Patch(copy, 8, BitConverter.GetBytes(count));
                CliContract.RunInProcess($"{Path.GetFileName(source)} directory of {count:x} streams", "analyze", copy, "--json");
            }
        }
    }

    [Test]
    public void Stream_directory_pointing_into_itself_or_the_header()
    {
        foreach (string source in Dumps())
        {
            var streams = StreamDirectory(source);
            uint directoryRva = BinaryPrimitives.ReadUInt32LittleEndian(File.ReadAllBytes(source).AsSpan(12, 4));
            foreach (uint rva in new uint[] { 0, 12, directoryRva })
            {
                string copy = Copy(source, "self-pointing.dmp");
                for (int i = 0; i < streams.Count; i++)
                    Patch(copy, directoryRva + i * 12 + 8, BitConverter.GetBytes(rva)); // every stream's RVA
                CliContract.RunInProcess($"{Path.GetFileName(source)}: every stream at 0x{rva:x}", "loaderlock", copy, "--json");
            }
        }
    }

    [Test]
    public void Thread_contexts_and_tebs_pointing_into_themselves()
    {
        string source = WineDumpMaker.Dump("x86_64", "spin").Path;
        string copy = Copy(source, "self-pointing-threads.dmp");
        using (MinidumpFile dump = MinidumpFile.Open(source))
        {
            var list = StreamDirectory(source).Single(s => s.Type == 3);
            for (int i = 0; i < dump.Threads.Count; i++)
            {
                long entry = list.Rva + 4 + i * MinidumpThread.Size;
                Patch(copy, entry + 44, BitConverter.GetBytes((uint)entry));   // CONTEXT RVA: the thread entry itself
                Patch(copy, entry + 40, BitConverter.GetBytes(0x4D0u));
                Patch(copy, entry + 16, BitConverter.GetBytes(dump.Threads[(i + 1) % dump.Threads.Count].Teb)); // another thread's TEB
            }
        }
        CliContract.RunInProcess("threads whose CONTEXT is their own entry", "loaderlock", copy, "--json");
    }
}
