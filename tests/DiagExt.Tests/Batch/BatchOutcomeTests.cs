using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Batch;

/// <summary>The batch's exit codes, JSON on stdout, timeouts and bad report options, on real dumps.</summary>
[TestFixture]
[Category(TestKind.Dump)]
public class BatchOutcomeTests
{
    private static string InFolder(string name) => Path.Combine(BatchFolder.Path, name);

    [Test]
    public void Json_alone_prints_the_batch_document_and_a_clean_batch_exits_0()
    {
        Repo.RequireSharedDumps(); // the clean Windows dump matched by the pattern
        Diagext.Result result = Diagext.Run("analyze", InFolder("healthy.core"), InFolder("windows") + "/win7-*.dmp", "--json", "--quiet");

        Assert.That(result.ExitCode, Is.EqualTo(0), result.Stderr + result.Stdout);
        Assert.That(result.Stderr, Is.Empty, "--quiet: no progress");
        Assert.That(result.Json.GetProperty("kind").GetString(), Is.EqualTo("batch"));
        // The healthy writers may be caught contending: a note at most, never a hazard or a warning.
        Assert.That(result.Findings.Select(f => f.GetProperty("severity").GetString()), Is.All.EqualTo("information"));
        string[] names = result.Json.GetProperty("dumps").EnumerateArray().Select(d => d.GetProperty("name").GetString()!).ToArray();
        Assert.That(names, Is.EqualTo(new[] { InFolder("healthy.core"), InFolder("windows") + "/win7-x86-stack-exhaustion.dmp" }));
    }

    [Test]
    public void A_batch_in_which_every_input_fails_exits_2_and_still_writes_its_report()
    {
        string json = Path.Combine(Repo.WorkDirectory, "batch-reports", "all-failed.json");
        Directory.CreateDirectory(Path.GetDirectoryName(json)!);

        Diagext.Result result = Diagext.Run("analyze", InFolder("bogus.dmp"), InFolder("truncated.core"), "/nonexistent/x.dmp", "--json=" + json);

        Assert.That(result.ExitCode, Is.EqualTo(2), result.Stderr + result.Stdout);
        JsonElement report = JsonDocument.Parse(File.ReadAllText(json)).RootElement;
        Assert.That(report.GetProperty("totals").GetProperty("failed").GetInt32(), Is.EqualTo(3));
        Assert.That(result.Stdout, Does.Contain("/nonexistent/x.dmp: no such file or folder"));
    }

    [Test]
    public void Each_dump_gets_its_own_timeout_and_a_timeout_fails_only_that_dump()
    {
        Diagext.Result result = Diagext.Run("analyze", InFolder("dictionary.core"), InFolder("healthy.core"), InFolder("bogus.dmp"), "--timeout", "200ms", "--json", "--quiet");

        Assert.That(result.ExitCode, Is.EqualTo(2), result.Stdout);
        var statuses = result.Json.GetProperty("dumps").EnumerateArray().ToDictionary(d => Path.GetFileName(d.GetProperty("name").GetString()!), d => d);
        Assert.That(statuses["dictionary.core"].GetProperty("status").GetString(), Is.EqualTo("timedOut"));
        Assert.That(statuses["dictionary.core"].GetProperty("error").GetString(), Does.Contain("timed out after 200 ms"));
        Assert.That(statuses["healthy.core"].GetProperty("status").GetString(), Is.EqualTo("timedOut"));
        Assert.That(statuses["bogus.dmp"].GetProperty("error").GetString(), Does.Contain("not a dump"));
    }

    [Test]
    public void A_folder_without_dumps_is_one_line_and_exit_2()
    {
        string folder = Path.Combine(Repo.WorkDirectory, "no-dumps");
        Directory.CreateDirectory(folder);
        File.WriteAllText(Path.Combine(folder, "readme.txt"), "nothing here");

        Diagext.Result result = Diagext.Run("analyze", folder);

        Assert.That(result.ExitCode, Is.EqualTo(2));
        Assert.That(result.Stderr.Trim(), Does.StartWith("diagext: no dump found in").And.Contain("1 files that are not dumps"));
    }

    [Test]
    public void A_report_file_that_is_one_of_the_dumps_is_refused()
    {
        string victim = Path.Combine(Repo.WorkDirectory, "victim.dmp");
        File.Copy(Repo.SharedDump("winxp-x86-breakpad-test-app.dmp"), victim, overwrite: true);
        File.SetAttributes(victim, FileAttributes.Normal);
        byte[] before = File.ReadAllBytes(victim);

        Diagext.Result result = Diagext.Run("analyze", victim, "--html", victim);

        Assert.That(result.ExitCode, Is.EqualTo(2));
        Assert.That(result.Stderr, Does.Contain("is one of the dumps"));
        Assert.That(File.ReadAllBytes(victim), Is.EqualTo(before));
    }

    [Test]
    public void A_dump_that_crashes_the_DAC_costs_that_dump_only()
    {
        string hostile = HostileDump.CrashingDac(DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core"), "dac-crash.core");

        Diagext.Result result = Diagext.Run("analyze", hostile, InFolder("healthy.core"), "--json", "--quiet");

        var dumps = result.Json.GetProperty("dumps").EnumerateArray().ToDictionary(d => Path.GetFileName(d.GetProperty("name").GetString()!), d => d);
        Assert.That(dumps["healthy.core"].GetProperty("status").GetString(), Is.EqualTo("analysed"), "the batch went on");
        Assert.That(result.ExitCode, Is.EqualTo(0), result.Stdout);
        JsonElement crashed = dumps["dac-crash.core"];
        if (Environment.Version.ToString() == HostileDump.FoundOn)
        {
            Assert.That(crashed.GetProperty("status").GetString(), Is.EqualTo("crashed"));
            Assert.That(crashed.GetProperty("error").GetString(), Does.Contain("SIGSEGV").And.Contain("probably corrupt"));
        }
        else
        {
            // Another runtime build may keep another variable at that entry: the dump must still fail alone.
            Assert.That(crashed.GetProperty("status").GetString(), Is.AnyOf("crashed", "failed", "analysed"));
        }
    }
}
