using System.Text.Json.Nodes;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Cli;

/// <summary>
/// The published schema (schemas/diagext-report.v1.schema.json) holds for what diagext writes: every in-process
/// run in the suite checks its JSON against it (Diagext.Run); here also the batch report written to a file, a
/// static scan, and a report broken on purpose, which the schema must refuse.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class ReportSchemaTests
{
    [Test]
    public void A_single_dump_report_a_static_scan_and_a_batch_match_the_schema()
    {
        string dump = DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core");
        Diagext.Result single = Diagext.Run("analyze", dump, "--json");
        Assert.That(single.ExitCode, Is.EqualTo(1), single.Stderr);
        ReportSchema.AssertValid(single.Stdout, "analyze DUMP --json");

        Diagext.Result scan = Diagext.Run("ctororder", "--assembly", Path.Combine(AppContext.BaseDirectory, "DiagExt.Core.dll"), "--json");
        ReportSchema.AssertValid(scan.Stdout, "ctororder --assembly --json");

        string folder = Path.Combine(Repo.WorkDirectory, "schema-batch");
        Directory.CreateDirectory(folder);
        DumpLink.Place(dump, Path.Combine(folder, "one.core"));
        File.WriteAllText(Path.Combine(folder, "notes.txt"), "not a dump");
        string file = Path.Combine(folder, "..", "schema-batch.json");
        Diagext.Result batch = Diagext.Run("analyze", folder, "--json", file, "--quiet");
        Assert.That(batch.ExitCode, Is.EqualTo(1), batch.Stderr);
        ReportSchema.AssertValid(File.ReadAllText(file), "analyze FOLDER --json FILE");
    }

    [TestCase("title", "a finding without its title")]
    [TestCase("osThreadId", "a thread without its OS id")]
    public void A_report_missing_what_the_schema_promises_is_refused(string field, string what)
    {
        Diagext.Result single = Diagext.Run("dictcycle", DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core"), "--json");
        JsonNode report = JsonNode.Parse(single.Stdout)!;
        JsonObject finding = report["findings"]![0]!.AsObject();
        if (field == "title")
            finding.Remove("title");
        else
            finding["threads"] = new JsonArray(new JsonObject { ["osThreadId"] = "0x1a2b" });

        Assert.That(() => ReportSchema.AssertValid(report.ToJsonString(), what), Throws.InstanceOf<AssertionException>());
    }
}
