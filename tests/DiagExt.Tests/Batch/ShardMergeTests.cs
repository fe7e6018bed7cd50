using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Batch;

/// <summary>
/// A batch split into shards ('analyze --manifest M --shard I/N --json PART') and merged ('diagext merge') writes the
/// report one machine's batch writes over the same dumps, timings aside: the suite's mixed folder
/// (<see cref="BatchFolder"/>: duplicates, a gzip, zip members, failures, skipped files) over 4 shards, and 200 copies
/// of its small dumps over 8 shards, where copies land in different shards and must be grouped again. Merge refuses
/// a missing shard (naming its dumps), a shard twice, and parts of different manifests; a dump gone after the
/// manifest was written is that dump's failure, and one shard run again alone merges with the others.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class ShardMergeTests
{
    private string _folder = "";
    private string _manifest = "";
    private string[] _parts = [];

    [OneTimeSetUp]
    public void ShardTheFolder()
    {
        _folder = ShardRuns.Folder("batch-folder-4");
        _manifest = Path.Combine(_folder, "manifest.json");
        Diagext.Result written = Diagext.Run("analyze", BatchFolder.Path, "--write-manifest", _manifest);
        Assert.That(written.ExitCode, Is.Zero, written.Stderr);
        _parts = RunShards(_manifest, 4, _folder);
    }

    /// <summary>Runs shards 0..count-1 as separate workers would (one at a time here: they share the machine's cores anyway).</summary>
    private static string[] RunShards(string manifest, int count, string folder) =>
        Enumerable.Range(0, count).Select(i => RunShard(manifest, i, count, folder)).ToArray();

    private static string RunShard(string manifest, int index, int count, string folder)
    {
        string part = Path.Combine(folder, $"part-{index}.json");
        Diagext.Result run = Diagext.Run(["analyze", "--manifest", manifest, "--shard", $"{index}/{count}", "--json", part, .. ShardRuns.Settings]);
        Assert.That(run.ExitCode, Is.AnyOf(0, 1, 3), run.Stderr);
        return part;
    }

    private static Diagext.Result Merge(string output, params string[] parts) =>
        Diagext.Run(["merge", .. parts, $"--json={output}"]);

    [Test]
    public void Four_shards_merged_equal_the_single_batch()
    {
        string merged = Path.Combine(_folder, "merged.json");
        Diagext.Result run = Merge(merged, _parts);
        Assert.That(ShardRuns.Comparable(merged), Is.EqualTo(ShardRuns.Comparable(ShardRuns.SingleBatchOfBatchFolder)));
        Assert.That(run.ExitCode, Is.EqualTo(JsonDocument.Parse(File.ReadAllText(ShardRuns.SingleBatchOfBatchFolder)).RootElement.GetProperty("exitCode").GetInt32()));
    }

    [Test]
    public void Every_part_holds_its_own_share_only_and_the_shares_cover_the_folder()
    {
        var names = _parts.SelectMany(p => JsonDocument.Parse(File.ReadAllText(p)).RootElement.GetProperty("dumps").EnumerateArray()
            .Select(d => d.GetProperty("name").GetString())).ToList();
        Assert.That(names, Is.Unique);
        Assert.That(names, Has.Count.EqualTo(BatchFolder.DumpCount));
        foreach (string part in _parts)
            ReportSchema.AssertValid(File.ReadAllText(part), part);
    }

    [Test]
    public void A_missing_shard_is_refused_naming_the_dumps_it_held()
    {
        JsonElement part = JsonDocument.Parse(File.ReadAllText(_parts[2])).RootElement;
        string held = part.GetProperty("dumps")[0].GetProperty("name").GetString()!;
        Diagext.Result run = Merge(Path.Combine(_folder, "never.json"), _parts[0], _parts[1], _parts[3]);
        Assert.That(run.ExitCode, Is.EqualTo(2));
        Assert.That(run.Stderr.TrimEnd().Split('\n'), Has.Length.EqualTo(1), run.Stderr);
        Assert.That(run.Stderr, Does.Contain("shard 2/4 is missing").And.Contain(held));
        Assert.That(File.Exists(Path.Combine(_folder, "never.json")), Is.False);
    }

    [Test]
    public void A_shard_given_twice_is_refused()
    {
        Diagext.Result run = Merge(Path.Combine(_folder, "never.json"), [.. _parts, _parts[1]]);
        Assert.That(run.ExitCode, Is.EqualTo(2));
        Assert.That(run.Stderr, Does.Contain("shard 1/4 is given twice"));
    }

    [Test]
    public void Parts_of_different_manifests_are_refused()
    {
        string other = ShardRuns.Folder("other-manifest");
        string manifest = Path.Combine(other, "manifest.json");
        Assert.That(Diagext.Run("analyze", Path.Combine(BatchFolder.Path, "bogus.dmp"), Path.Combine(BatchFolder.Path, "truncated.core"), "--write-manifest", manifest).ExitCode, Is.Zero);
        string foreign = RunShard(manifest, 1, 4, other);
        Diagext.Result run = Merge(Path.Combine(other, "never.json"), _parts[0], foreign, _parts[2], _parts[3]);
        Assert.That(run.ExitCode, Is.EqualTo(2));
        Assert.That(run.Stderr, Does.Contain("parts of different batches"));
    }

    [Test]
    public void Two_hundred_copies_over_eight_shards_merge_into_the_single_batch_and_one_shard_reruns_alone()
    {
        Repo.RequireSharedDumps();
        string copies = Path.Combine(ShardRuns.Folder("copies-200"), "dumps");
        Directory.CreateDirectory(copies);
        // The two smallest of the team's real dumps, a file named like a dump that is not one (a failure), and a note
        // (skipped), hard-linked 200 times in all: no disk, and copies of one content in every shard.
        string[] originals =
        [
            Path.Combine(BatchFolder.Path, "windows", "winxp-x86-breakpad-test-app.dmp"),
            Path.Combine(BatchFolder.Path, "windows", "win-x86-crashpad-tiny-exe.dmp"),
            Path.Combine(BatchFolder.Path, "bogus.dmp"),
            Path.Combine(BatchFolder.Path, "notes.txt"),
        ];
        HardLinks(Enumerable.Range(0, 200).Select(i => (originals[i % originals.Length], Path.Combine(copies, $"{i:000}-{Path.GetFileName(originals[i % originals.Length])}"))));
        string folder = Path.GetDirectoryName(copies)!;
        string single = ShardRuns.RunSingle(copies, Path.Combine(folder, "single.json"));
        string manifest = Path.Combine(folder, "manifest.json");
        Assert.That(Diagext.Run("analyze", copies, "--write-manifest", manifest).ExitCode, Is.Zero);
        string[] parts = RunShards(manifest, 8, folder);
        Assert.That(parts.Select(p => JsonDocument.Parse(File.ReadAllText(p)).RootElement.GetProperty("dumps").GetArrayLength()), Has.All.GreaterThan(0));

        string merged = Path.Combine(folder, "merged.json");
        Merge(merged, parts);
        Assert.That(ShardRuns.Comparable(merged), Is.EqualTo(ShardRuns.Comparable(single)));
        JsonElement totals = JsonDocument.Parse(File.ReadAllText(merged)).RootElement.GetProperty("totals");
        Assert.That(totals.GetProperty("analysed").GetInt32(), Is.EqualTo(2), "each real dump's content once, whichever shards its copies were in");
        Assert.That(totals.GetProperty("duplicates").GetInt32(), Is.EqualTo(98));
        Assert.That(totals.GetProperty("failed").GetInt32(), Is.EqualTo(50), "a file that is not a dump is no copy of another: each fails on its own");

        // After the manifest: one dump disappears and a new one appears. Only the shard that held the gone one runs again.
        string gone = Path.Combine(copies, "000-winxp-x86-breakpad-test-app.dmp");
        File.Delete(gone);
        HardLinks([(originals[0], Path.Combine(copies, "new-after-the-manifest.dmp"))]);
        int holder = Array.FindIndex(parts, p => JsonDocument.Parse(File.ReadAllText(p)).RootElement.GetProperty("dumps").EnumerateArray().Any(d => d.GetProperty("name").GetString() == gone));
        parts[holder] = RunShard(manifest, holder, 8, folder);
        Merge(merged, parts);
        JsonElement report = JsonDocument.Parse(File.ReadAllText(merged)).RootElement;
        var dumps = report.GetProperty("dumps").EnumerateArray().ToDictionary(d => d.GetProperty("name").GetString()!);
        Assert.That(dumps, Has.Count.EqualTo(150), "the listing is the manifest's: the new file is not in it");
        Assert.That(dumps[gone].GetProperty("status").GetString(), Is.EqualTo("failed"));
        Assert.That(dumps[gone].GetProperty("error").GetString(), Does.Contain("no such file").IgnoreCase);
    }

    /// <summary>Hard links (.NET has no call for them), all in one shell: 200 'ln' processes would cost seconds.</summary>
    private static void HardLinks(IEnumerable<(string Target, string Link)> links)
    {
        string script = string.Join("\n", links.Select(l => $"ln -- '{l.Target}' '{l.Link}' || exit 1"));
        ProcessRunner.Result ln = ProcessRunner.Run("sh", ["-c", script], TimeSpan.FromSeconds(60));
        Assert.That(ln.ExitCode, Is.Zero, ln.Stderr);
    }
}
