using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Batch;

/// <summary>
/// A real engine: a one-node Slurm cluster (<see cref="SlurmCluster"/>) runs the suite's mixed folder
/// (<see cref="BatchFolder"/>) as 'sbatch --array=0-3', each task 'diagext analyze --manifest M --shard
/// $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT --json part-N.json'; the parts merged equal the single-machine batch,
/// timings aside. Skips with one reason where Slurm is not installed.
/// </summary>
[TestFixture]
[Category(TestKind.Slurm)]
public class SlurmShardTests
{
    private static readonly TimeSpan JobTimeout = TimeSpan.FromMinutes(5);

    [Test]
    public void A_job_array_of_four_shards_merges_into_the_single_batch()
    {
        if (SlurmCluster.Unavailable is { } why)
            Assert.Ignore(why);
        string folder = ShardRuns.Folder("slurm");
        string manifest = Path.Combine(folder, "manifest.json");
        Assert.That(Diagext.Run("analyze", BatchFolder.Path, "--write-manifest", manifest).ExitCode, Is.Zero);
        string single = ShardRuns.SingleBatchOfBatchFolder;

        using SlurmCluster cluster = SlurmCluster.Start();
        string task = $"'{Diagext.Executable}' analyze --manifest '{manifest}' --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT " +
                      $"--json '{folder}'/part-$SLURM_ARRAY_TASK_ID.json {string.Join(' ', ShardRuns.Settings)}";
        ProcessRunner.Result submit = cluster.Run("sbatch", "--parsable", "--array=0-3", "--job-name=diagext-shards",
            $"--output={folder}/slurm-%A_%a.out", $"--chdir={folder}", "--wrap", task);
        Assert.That(submit.ExitCode, Is.Zero, submit.Stderr);
        string job = submit.Stdout.Trim();

        var waited = System.Diagnostics.Stopwatch.StartNew();
        while (cluster.Run("squeue", "-h", "-j", job).Stdout.Trim().Length > 0)
        {
            if (waited.Elapsed > JobTimeout)
            {
                cluster.Run("scancel", job);
                Assert.Fail($"job {job} still queued or running after {JobTimeout.TotalMinutes} min");
            }
            Thread.Sleep(500);
        }

        string[] parts = Enumerable.Range(0, 4).Select(i => Path.Combine(folder, $"part-{i}.json")).ToArray();
        string logs = string.Join("\n", Directory.GetFiles(folder, "slurm-*.out").Select(File.ReadAllText));
        Assert.That(parts.Where(p => !File.Exists(p)), Is.Empty, $"every array task writes its part; their output:\n{logs}");
        foreach (string part in parts)
            Assert.That(JsonDocument.Parse(File.ReadAllText(part)).RootElement.GetProperty("shard").GetProperty("count").GetInt32(), Is.EqualTo(4),
                "SLURM_ARRAY_TASK_COUNT is the number of tasks");

        string merged = Path.Combine(folder, "merged.json");
        Diagext.Result merge = Diagext.Run(["merge", .. parts, $"--json={merged}"]);
        Assert.That(File.Exists(merged), merge.Stderr);
        Assert.That(ShardRuns.Comparable(merged), Is.EqualTo(ShardRuns.Comparable(single)));
    }
}
