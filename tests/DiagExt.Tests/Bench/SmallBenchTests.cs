using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Bench;

/// <summary>
/// bench/small.sh end to end, each command once (about a minute): it dumps the Healthy and DictCycle samples and times
/// the native diagext's analyze against dotnet-dump's dumpheap -stat on each. Timings are printed, never asserted; what
/// is asserted is that the script runs from this clone, that analyze found nothing in the healthy dump and the corrupt
/// table in the demo's, and that it ends with one verdict line per dump.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class SmallBenchTests
{
    [Test]
    public void Small_dump_bench_runs_and_its_checks_pass()
    {
        if (ToolPackages.NativeExecutable is not { } native)
        {
            Assert.Inconclusive("no Native AOT diagext on this machine (clang missing): bench/small.sh measures only that form");
            return;
        }
        ProcessRunner.Result result = ProcessRunner.Run("bash", ["bench/small.sh", "--repeat", "1"], TimeSpan.FromMinutes(10), Repo.Root,
            new Dictionary<string, string> { ["DIAGEXT_AOT"] = native });

        string output = result.Stdout + result.Stderr;
        if (result.ExitCode == 2 && output.Contains("no dotnet-dump to compare with"))
            Assert.Inconclusive($"dotnet-dump is not installable here: {output.Trim().Split('\n')[^1]}");
        Assert.That(result.ExitCode, Is.EqualTo(0), output);
        Assert.That(output, Does.Contain("check ok: analyze finds nothing in the healthy process (0)"));
        Assert.That(output, Does.Contain("check ok: analyze finds the demo's corrupt table (1)"));
        Assert.That(result.Stdout, Does.Match(@"(?m)^  healthy dump: dotnet-dump / analyze\s+\d+\.\d\d >  1\s+(met|NOT met)$"));
        Assert.That(result.Stdout, Does.Match(@"(?m)^  demo dump: dotnet-dump / analyze\s+\d+\.\d\d >  1\s+(met|NOT met)$"));
        Assert.That(Directory.GetFiles(Path.Combine(Repo.Root, "artifacts", "bench", "dumps"), "small-*.core"), Is.Empty, "the dumps are deleted afterwards");
    }
}
