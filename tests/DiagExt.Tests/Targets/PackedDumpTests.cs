using DiagExt.Core;
using System.IO.Compression;
using System.Text.Json;
using DiagExt.Core.Errors;
using DiagExt.Core.Targets;
using DiagExt.Core.Targets.Sources;
using DiagExt.Tests.Batch;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Targets;

/// <summary>Dumps inside .gz and .zip files, read without unpacking to disk when they fit in memory.</summary>
[TestFixture]
public class PackedDumpTests
{
    private static string InFolder(string name) => Path.Combine(BatchFolder.Path, name);

    [Test]
    public void A_gzipped_core_is_analysed_like_the_core()
    {
        Diagext.Result result = Diagext.Run("dictcycle", InFolder("hashset.core.gz"), "--json");

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        Assert.That(result.Json.GetProperty("target").GetProperty("name").GetString(), Is.EqualTo(InFolder("hashset.core.gz")));
        Assert.That(result.Findings.Select(f => f.TryGetProperty("holder", out JsonElement h) ? h.GetString() : null), Has.Some.EndsWith("SetTarget.Set"));
    }

    [Test]
    public void A_zip_member_is_named_with_entry_and_a_zip_of_one_dump_needs_no_name()
    {
        Repo.RequireSharedDumps(); // the zip of many holds shared Windows dumps
        string many = InFolder("windows.zip");
        Diagext.Result ambiguous = Diagext.Run("dictcycle", many);
        Assert.That(ambiguous.ExitCode, Is.EqualTo(2));
        Assert.That(ambiguous.Stderr, Does.Contain("holding 2 dumps; name one with --entry NAME"));

        Diagext.Result named = Diagext.Run("dictcycle", many, "--entry", "crash/win11-x64-crashpad-tiny-exe.dmp");
        Assert.That(named.Stderr, Does.Contain($"{many}:crash/win11-x64-crashpad-tiny-exe.dmp: no .NET runtime"));

        string one = Path.Combine(Repo.WorkDirectory, "one-core.zip");
        File.Delete(one);
        using (ZipArchive zip = ZipFile.Open(one, ZipArchiveMode.Create))
            zip.CreateEntryFromFile(DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core"), "nested/app.core", CompressionLevel.Fastest);
        Diagext.Result single = Diagext.Run("analyze", one, "--entry", "nested/app.core", "--json");
        Assert.That(single.ExitCode, Is.EqualTo(1), single.Stderr);
        Assert.That(single.Json.GetProperty("target").GetProperty("name").GetString(), Is.EqualTo($"{one}:nested/app.core"));
        Assert.That(Diagext.Run("dictcycle", one).ExitCode, Is.EqualTo(1), "a zip holding one dump needs no --entry");
    }

    [Test]
    public void Small_dumps_unpack_into_memory_large_ones_into_a_temp_file_that_has_no_name()
    {
        var source = new DumpSource(InFolder("hashset.core.gz"), DumpContainer.Gzip);
        long length = DumpArchives.UnpackedLength(source)!.Value;

        using (Stream content = DumpArchives.OpenContent(source))
        using (UnpackedDump dump = UnpackedDump.Unpack(content, length, source.DisplayName, Limits.Default, CancellationToken.None))
        {
            Assert.That(dump.InMemory, Is.True);
            Assert.That(dump.Length, Is.EqualTo(length));
            Assert.That(new FileInfo(dump.Path).LinkTarget, Does.StartWith("/memfd:"));
        }

        var tight = Limits.Default with { MaxInMemoryUnpackBytes = 1024 * 1024 };
        using (Stream content = DumpArchives.OpenContent(source))
        using (UnpackedDump dump = UnpackedDump.Unpack(content, length, source.DisplayName, tight, CancellationToken.None))
        {
            Assert.That(dump.InMemory, Is.False);
            Assert.That(new FileInfo(dump.Path).LinkTarget, Does.EndWith("(deleted)"), "the temp file's name is gone while it is read");
            Assert.That(File.ReadAllBytes(dump.Path).Length, Is.EqualTo(length));
        }
    }

    [Test]
    public void A_zip_bomb_stops_at_the_limit()
    {
        var source = new DumpSource(InFolder("hashset.core.gz"), DumpContainer.Gzip);
        var tiny = Limits.Default with { MaxUnpackedBytes = 10 * 1024 * 1024 };
        using Stream content = DumpArchives.OpenContent(source);
        var e = Assert.Throws<DiagExtException>(() => UnpackedDump.Unpack(content, null, source.DisplayName, tiny, CancellationToken.None));
        Assert.That(e!.Message, Does.Contain("unpacks to more than 10 MiB"));
    }

    [Test]
    public void A_gzip_of_a_text_file_is_not_a_dump()
    {
        string path = Path.Combine(Repo.WorkDirectory, "text.gz");
        using (var gz = new GZipStream(File.Create(path), CompressionLevel.Fastest))
            gz.Write("just some log lines\n"u8);
        Diagext.Result result = Diagext.Run("analyze", path);
        Assert.That(result.ExitCode, Is.EqualTo(2));
        Assert.That(result.Stderr, Does.Contain("compressed, but what it holds is not a dump"));
    }
}
