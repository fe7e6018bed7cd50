using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Batch;

/// <summary>
/// One 'diagext analyze FOLDER' over a folder of mixed real dumps (see <see cref="BatchFolder"/>), with all
/// three report files: the right result per dump, duplicates analysed once, failures with their reason,
/// non-dumps skipped, and the aggregated exit code.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class BatchFolderTests
{
    private Diagext.Result _run = null!;
    private JsonElement _report;
    private string _html = "";
    private string _markdown = "";

    [OneTimeSetUp]
    public void AnalyseTheFolder()
    {
        string reports = Path.Combine(Repo.WorkDirectory, "batch-reports");
        Directory.CreateDirectory(reports);
        string json = Path.Combine(reports, "batch.json"), html = Path.Combine(reports, "batch.html"), markdown = Path.Combine(reports, "batch.md");
        _run = Diagext.Run("analyze", BatchFolder.Path, "--json", json, "--html", html, "--markdown", markdown);
        _report = JsonDocument.Parse(File.ReadAllText(json)).RootElement;
        _html = File.ReadAllText(html);
        _markdown = File.ReadAllText(markdown);
    }

    private JsonElement Dump(string name) =>
        _report.GetProperty("dumps").EnumerateArray().Single(d => d.GetProperty("name").GetString() == Path.Combine(BatchFolder.Path, name));

    private static string Status(JsonElement dump) => dump.GetProperty("status").GetString()!;

    private IEnumerable<JsonElement> FindingsOf(string name) =>
        _report.GetProperty("findings").EnumerateArray().Where(f => f.GetProperty("dump").GetString() == Path.Combine(BatchFolder.Path, name));

    [Test]
    public void Exit_code_is_1_because_hazards_were_found() => Assert.That(_run.ExitCode, Is.EqualTo(1), _run.Stderr);

    [Test]
    public void The_corrupt_dictionary_is_found_once_and_reported_under_both_names()
    {
        JsonElement original = Dump("copy-of-dictionary.core"); // found first: '-' sorts before '.'
        JsonElement copy = Dump("dictionary.core");
        Assert.That(Status(original), Is.EqualTo("analysed"));
        Assert.That(original.TryGetProperty("sameContentAs", out _), Is.False);
        Assert.That(copy.GetProperty("sameContentAs").GetString(), Is.EqualTo(original.GetProperty("name").GetString()));
        Assert.That(Status(copy), Is.EqualTo("analysed"));
        Assert.That(copy.GetProperty("findingCount").GetInt32(), Is.EqualTo(original.GetProperty("findingCount").GetInt32()));

        JsonElement finding = FindingsOf("copy-of-dictionary.core").Single(f => f.TryGetProperty("holder", out JsonElement h) && h.GetString()!.EndsWith("DictionaryTarget.Dict"));
        Assert.That(finding.GetProperty("holder").GetString(), Does.EndWith("DictionaryTarget.Dict"));
        Assert.That(finding.GetProperty("alsoIn").EnumerateArray().Select(n => n.GetString()), Is.EqualTo(new[] { copy.GetProperty("name").GetString() }));
        Assert.That(FindingsOf("dictionary.core"), Is.Empty, "a duplicate's findings are listed once, under the first name");
        Assert.That(_report.GetProperty("totals").GetProperty("duplicates").GetInt32(), Is.EqualTo(BatchFolder.Duplicates));
    }

    [Test]
    public void The_gzipped_hashset_core_is_read_and_its_corrupt_set_found()
    {
        Assert.That(Status(Dump("hashset.core.gz")), Is.EqualTo("analysed"));
        // The sample's earlier, unreferenced sets may be corrupt too: the one that matters is the static one.
        JsonElement finding = FindingsOf("hashset.core.gz").Single(f => f.TryGetProperty("holder", out JsonElement h) && h.GetString()!.EndsWith("SetTarget.Set"));
        Assert.That(finding.GetProperty("type").GetString(), Does.StartWith("System.Collections.Generic.HashSet<System.String"));
    }

    [Test]
    public void The_healthy_process_has_no_hazard()
    {
        JsonElement healthy = Dump("healthy.core");
        Assert.That(Status(healthy), Is.EqualTo("analysed"));
        Assert.That(healthy.GetProperty("hazardCount").GetInt32(), Is.Zero);
        // Its three writers contend for one lock: a dump that catches two of them waiting holds a chain one dump
        // cannot settle, a note (exit 0), never a hazard or a warning.
        Assert.That(FindingsOf("healthy.core").Select(f => f.GetProperty("severity").GetString()), Is.All.EqualTo("information"));
        Assert.That(healthy.GetProperty("target").GetProperty("runtime").GetProperty("availability").GetString(), Is.EqualTo("Loaded"));
    }

    [TestCase("truncated.core", "truncated")]
    [TestCase("bogus.dmp", "not a dump file")]
    [TestCase("windows.zip:crash/truncated-win10.dmp", "truncated")]
    public void Broken_inputs_fail_alone_with_their_reason(string name, string reason)
    {
        if (name.StartsWith("windows.zip:", StringComparison.Ordinal))
            Repo.RequireSharedDumps();
        JsonElement dump = Dump(name);
        Assert.That(Status(dump), Is.EqualTo("failed"));
        Assert.That(dump.GetProperty("error").GetString(), Does.Contain(reason));
    }

    [Test]
    public void Files_that_are_not_dumps_are_skipped_not_failed()
    {
        string[] skipped = _report.GetProperty("skipped").EnumerateArray().Select(s => s.GetProperty("name").GetString()!).ToArray();
        string[] expected = Repo.HasSharedDumps
            ? [Path.Combine(BatchFolder.Path, "notes.txt"), Path.Combine(BatchFolder.Path, "windows.zip") + ":readme.txt"]
            : [Path.Combine(BatchFolder.Path, "notes.txt")];
        Assert.That(skipped, Is.EquivalentTo(expected));
    }

    [Test]
    public void Every_real_windows_dump_is_handled_without_a_crash_or_a_dictcycle_finding()
    {
        Repo.RequireSharedDumps();
        foreach (string name in BatchFolder.WindowsDumps)
        {
            JsonElement dump = Dump("windows/" + name);
            string status = Status(dump);
            Assert.That(status, Is.AnyOf("analysed", "failed"), name);
            if (status == "failed")
                Assert.That(dump.GetProperty("error").GetString(), Does.Contain("no .NET runtime"), name);
            Assert.That(FindingsOf("windows/" + name).Where(f => f.GetProperty("detector").GetString() == "dictcycle"), Is.Empty, name);
        }
        // The zip holds one of them again: same content, analysed once, from the plain file (no unpacking).
        Assert.That(Dump("windows.zip:crash/win11-x64-crashpad-tiny-exe.dmp").GetProperty("sameContentAs").GetString(),
            Is.EqualTo(Path.Combine(BatchFolder.Path, "windows/win11-x64-crashpad-tiny-exe.dmp")));
    }

    [Test]
    public void The_json_document_is_one_object_with_findings_dumps_and_totals()
    {
        Assert.That(_report.GetProperty("schemaVersion").GetInt32(), Is.EqualTo(1));
        Assert.That(_report.GetProperty("kind").GetString(), Is.EqualTo("batch"));
        Assert.That(_report.GetProperty("exitCode").GetInt32(), Is.EqualTo(1));
        JsonElement totals = _report.GetProperty("totals");
        int dumps = _report.GetProperty("dumps").GetArrayLength();
        Assert.That(totals.GetProperty("dumps").GetInt32(), Is.EqualTo(dumps));
        Assert.That(dumps, Is.EqualTo(BatchFolder.DumpCount));
        Assert.That(totals.GetProperty("analysed").GetInt32() + totals.GetProperty("failed").GetInt32(), Is.EqualTo(totals.GetProperty("distinctDumps").GetInt32()));
        Assert.That(totals.GetProperty("findings").GetInt32(), Is.EqualTo(_report.GetProperty("findings").GetArrayLength()));
        foreach (JsonElement finding in _report.GetProperty("findings").EnumerateArray())
        {
            foreach (string field in new[] { "dump", "detector", "kind", "title", "summary", "threads" })
                Assert.That(finding.TryGetProperty(field, out _), field);
            Assert.That(finding.GetProperty("threads").EnumerateArray().All(t => t.GetProperty("osThreadId").ValueKind == JsonValueKind.Number));
        }
    }

    [Test]
    public void The_console_shows_the_summary_table_errors_and_the_written_reports()
    {
        string[] lines = _run.Stdout.Split('\n');
        Assert.That(lines[0], Does.Match(@"^dump\s+result\s+runtime\s+threads\s+.*dictcycle.*\s+time$"));
        Assert.That(_run.Stdout, Does.Contain("errors:"));
        Assert.That(_run.Stdout, Does.Contain("truncated.core: the dump is truncated"));
        Assert.That(_run.Stdout, Does.Contain("same content, analysed once:"));
        string duplicates = BatchFolder.Duplicates == 1 ? "1 duplicate" : $"{BatchFolder.Duplicates} duplicates";
        Assert.That(_run.Stdout, Does.Match($@"{BatchFolder.DumpCount} dumps \({duplicates}\): \d+ analysed, \d+ failed; \d+ findings?(, \d+ notes?)? \(.*dictcycle: \d+"));
        Assert.That(_run.Stdout, Does.Contain("wrote ").And.Contain("batch.html"));
        // Progress (stderr is not a terminal here): one plain line per dump, no bar.
        int distinct = BatchFolder.DumpCount - BatchFolder.Duplicates;
        Assert.That(_run.Stderr, Does.Contain($"[1/{distinct}] ").And.Contain($"[{distinct}/{distinct}] "));
        Assert.That(_run.Stderr, Does.Not.Contain("\r"));
    }

    [Test]
    public void The_html_page_is_self_contained_sortable_expandable_and_escaped()
    {
        Assert.That(_html, Does.StartWith("<!DOCTYPE html>"));
        Assert.That(_html, Does.Contain("<table class=\"sortable\""));
        Assert.That(_html, Does.Contain("<details class=\"finding hazard\">"));
        Assert.That(_html, Does.Contain("Content-Security-Policy"));
        Assert.That(_html, Does.Not.Match("(src|href)=\"(https?:)?//"), "no external resources");
        Assert.That(_html, Does.Contain("Dictionary&lt;String, Int32&gt;"));
        Assert.That(_html, Does.Not.Contain("Dictionary<String"), "type names from the dump are escaped");
        Assert.That(_html, Does.Contain("DictionaryTarget.Dict"));
    }

    [Test]
    public void The_markdown_report_has_the_table_and_the_findings()
    {
        Assert.That(_markdown, Does.Contain("| dump | result | runtime | threads |"));
        Assert.That(_markdown, Does.Contain("## Findings"));
        Assert.That(_markdown, Does.Contain("Dictionary&lt;String, Int32&gt;"));
        Assert.That(_markdown, Does.Contain("## Errors"));
    }
}
