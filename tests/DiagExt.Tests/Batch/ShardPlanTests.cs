using DiagExt.Cli.Batch;
using DiagExt.Core.Targets.Sources;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Batch;

/// <summary>
/// How a batch is split: --shard I/N read strictly (one line, exit 2, for anything else), shares balanced by size from
/// the listing alone (disjoint, covering, the same on every worker), and merge's answers to inputs that are no parts.
/// </summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class ShardPlanTests
{
    private static List<DumpCandidate> Listing(params long?[] sizes) =>
        sizes.Select((s, i) => new DumpCandidate(new DumpSource($"dumps/{i:000}.core"), s, s is null ? "not a dump file" : null)).ToList();

    [TestCase("x")]
    [TestCase("4/4")]
    [TestCase("1/0")]
    [TestCase("-1/4")]
    [TestCase("1/")]
    [TestCase("/4")]
    [TestCase("1/4/5")]
    [TestCase("1.0/4")]
    [TestCase(" 1/4")]
    [TestCase("0/1000000")]
    public void A_bad_shard_is_one_line_and_exit_2(string shard)
    {
        Diagext.Result run = Diagext.Run("analyze", "no-such-folder", $"--shard={shard}");
        Assert.That(run.ExitCode, Is.EqualTo(2));
        Assert.That(run.Stderr.TrimEnd().Split('\n'), Has.Length.EqualTo(1), run.Stderr);
        Assert.That(run.Stderr, Does.StartWith("diagext: --shard"));
    }

    [Test]
    public void Manifest_options_that_contradict_each_other_are_refused()
    {
        Assert.That(Diagext.Run("analyze", "dumps", "--manifest", "m.json").Stderr, Does.Contain("not both"));
        Assert.That(Diagext.Run("analyze", "dumps", "--write-manifest", "m.json", "--shard", "0/2").Stderr, Does.Contain("only lists the dumps"));
        Assert.That(Diagext.Run("analyze", "--shard", "0/2").Stderr, Does.Contain("or --manifest FILE"));
    }

    [Test]
    public void A_file_that_is_no_manifest_is_one_line_and_exit_2()
    {
        string file = Path.Combine(Path.GetTempPath(), $"not-a-manifest-{Guid.NewGuid():N}.json");
        File.WriteAllText(file, "{\"kind\": \"batch\"}");
        try
        {
            Diagext.Result run = Diagext.Run("analyze", "--manifest", file, "--shard", "0/2");
            Assert.That(run.ExitCode, Is.EqualTo(2));
            Assert.That(run.Stderr, Does.Contain("not a readable manifest"));
            Assert.That(run.Stderr.TrimEnd().Split('\n'), Has.Length.EqualTo(1));
        }
        finally
        {
            File.Delete(file);
        }
    }

    [Test]
    public void One_huge_dump_gets_a_shard_of_its_own()
    {
        List<DumpCandidate> listing = Listing(1 << 20, 1 << 20, 8L << 30, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20);
        int[] owner = ShardPlan.Assign(listing, 2);
        Assert.That(owner.Count(o => o == owner[2]), Is.EqualTo(1), "the 8 GB dump is alone");
    }

    [Test]
    public void Shares_are_disjoint_cover_the_listing_and_do_not_depend_on_who_computes_them()
    {
        var random = new Random(30);
        List<DumpCandidate> listing = Listing([.. Enumerable.Range(0, 997).Select(i => i % 50 == 0 ? (long?)null : random.NextInt64(1, 4L << 30))]);
        const int count = 8;
        var shares = Enumerable.Range(0, count).Select(i => ShardPlan.Share(listing, new Shard(i, count))).ToList();
        Assert.That(shares.SelectMany(s => s).Select(d => d.Name), Is.EquivalentTo(listing.Select(d => d.Name)));
        Assert.That(shares.SelectMany(s => s).Select(d => d.Name), Is.Unique);
        Assert.That(ShardPlan.Assign(listing, count), Is.EqualTo(ShardPlan.Assign(listing.ToList(), count)));
        long[] bytes = shares.Select(s => s.Sum(d => d.Length ?? 0)).ToArray();
        Assert.That(bytes.Max() - bytes.Min(), Is.LessThanOrEqualTo(listing.Max(d => d.Length ?? 0)), "greedy largest-first: shares differ by at most one dump");
        Assert.That(shares.Select(s => s.Count(d => d.Length is null)), Has.All.InRange(2, 3), "failed inputs weigh nothing and go round the shards");
    }

    [Test]
    public void More_shards_than_dumps_leaves_some_empty()
    {
        int[] owner = ShardPlan.Assign(Listing(5, 3), 4);
        Assert.That(owner, Is.EqualTo(new[] { 0, 1 }));
    }

    [Test]
    public void Merge_refuses_what_is_no_part_with_one_line()
    {
        string folder = Path.Combine(Path.GetTempPath(), $"merge-inputs-{Guid.NewGuid():N}");
        Directory.CreateDirectory(folder);
        try
        {
            string batch = Path.Combine(folder, "batch.json");
            File.WriteAllText(batch, "{\"schemaVersion\": 1, \"kind\": \"batch\", \"dumps\": []}");
            string garbage = Path.Combine(folder, "garbage.json");
            File.WriteAllText(garbage, "{\"kind\": \"batch\", \"shard\": {\"index\": \"zero\"}, \"manifest\": {}}");
            foreach (var (args, expected) in new (string[], string)[]
                     {
                         ([], "merge needs the parts"),
                         ([Path.Combine(folder, "missing.json")], "cannot read the part"),
                         ([batch], "not a shard's part"),
                         ([garbage], "not a shard's part"),
                         ([batch, "--json", batch], "is one of the parts"),
                     })
            {
                Diagext.Result run = Diagext.Run(["merge", .. args]);
                Assert.That(run.ExitCode, Is.EqualTo(2), string.Join(' ', args));
                Assert.That(run.Stderr, Does.Contain(expected));
                Assert.That(run.Stderr.TrimEnd().Split('\n'), Has.Length.EqualTo(1), run.Stderr);
            }
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
