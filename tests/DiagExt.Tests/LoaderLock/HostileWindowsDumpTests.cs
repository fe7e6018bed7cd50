using System.Globalization;
using System.Text.Json;
using DiagExt.Core.Native.Minidump;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.LoaderLock;

/// <summary>
/// Target memory is hostile: real Wine dumps with their memory damaged must still give a plain answer or one line
/// on stderr, never a crash, a hang or a stack trace.
/// </summary>
[TestFixture]
public class HostileWindowsDumpTests
{
    [Test]
    public void A_lock_owned_by_a_thread_that_is_not_in_the_dump_is_orphaned()
    {
        WineDump dump = WineDumpMaker.Dump("x86_64", "spin");
        JsonElement original = Diagext.Run("loaderlock", dump.Path, "--json").Findings.Single();
        ulong lockAddress = ulong.Parse(original.GetProperty("lockAddress").GetString()![2..], NumberStyles.HexNumber);
        string copy = PatchedDumps.Patched(dump.Path, "loaderlock-orphaned.dmp", lockAddress + 0x10, BitConverter.GetBytes(0xDEADUL)); // x64 OwningThread

        Diagext.Result result = Diagext.Run("loaderlock", copy, "--json");
        TestContext.Out.WriteLine(Diagext.Run("loaderlock", copy).Stdout);
        Assert.That(result.ExitCode, Is.EqualTo(1));
        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("orphaned"));
        Assert.That(finding.GetProperty("owningThread").GetUInt64(), Is.EqualTo(0xDEAD));
        Assert.That(finding.TryGetProperty("owner", out _), Is.False);
        Assert.That(finding.GetProperty("summary").GetString(), Does.StartWith("The loader lock is held by thread 0xdead, which is not in this dump"));
    }

    [TestCase(1)]
    [TestCase(2)]
    [TestCase(3)]
    [TestCase(4)]
    [TestCase(5)]
    public void Damaged_stacks_and_images_give_an_answer_or_one_line(int seed)
    {
        WineDump dump = WineDumpMaker.Dump("x86_64", "spin");
        string copy = PatchedDumps.CopyOf(dump.Path, $"loaderlock-damaged-{seed}.dmp");
        var random = new Random(seed);
        MinidumpMemoryRange[] ranges;
        using (MinidumpFile parsed = MinidumpFile.Open(copy))
            ranges = [.. parsed.MemoryRanges];
        using (var file = File.OpenWrite(copy))
        {
            // Overwrite every captured range with bursts of random bytes: TEBs, stacks, headers, export tables, .pdata.
            foreach (MinidumpMemoryRange range in ranges)
            {
                for (ulong at = 0; at < range.Size; at += (ulong)random.Next(64, 4096))
                {
                    file.Position = range.FileOffset + (long)at;
                    byte[] noise = new byte[(int)Math.Min(16UL, range.Size - at)];
                    random.NextBytes(noise);
                    file.Write(noise);
                }
            }
        }

        ProcessRunner.Result result = ProcessRunner.Run(Diagext.Executable, ["loaderlock", copy], TimeSpan.FromMinutes(1));
        TestContext.Out.WriteLine(result.Stdout + result.Stderr);
        Assert.That(result.ExitCode, Is.AnyOf(0, 1, 2));
        Assert.That(result.Stderr, Does.Not.Contain("internal error").And.Not.Contain("   at "));
        Assert.That(result.Stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries), Has.Length.AtMost(1));
    }

    [Test]
    public void A_truncated_wine_dump_is_one_line()
    {
        WineDump dump = WineDumpMaker.Dump("x86_64", "spin");
        string truncated = Path.Combine(Repo.WorkDirectory, "dumps", "loaderlock-truncated.dmp");
        using (var source = File.OpenRead(dump.Path))
        using (var target = File.Create(truncated))
        {
            byte[] head = new byte[1_000_000];
            source.ReadExactly(head);
            target.Write(head);
        }
        Diagext.Result result = Diagext.Run("loaderlock", truncated);
        Assert.That(result.ExitCode, Is.EqualTo(2));
        Assert.That(result.Stderr.Trim(), Does.StartWith("diagext: ").And.Contain("truncated"));
    }
}
