using DiagExt.Core.Catalog;
using System.Text.Json.Nodes;
using DiagExt.Cli.Commands;
using DiagExt.Core.Analysis;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Cli;

/// <summary>
/// The detector catalog is the one list of detectors: what is not generated from it (the published schema's detector
/// names, diagext's command list that the WinDbg exports, gallery manifest and package readme are generated from) is
/// checked against it here. The generated artefacts are checked in ExportTableTests, GalleryManifestTests and
/// ToolPackageTests.
/// </summary>
[TestFixture]
public class CatalogAgreementTests
{
    private static readonly string[] Detectors = DetectorCatalog.CreateAll().Select(d => d.Name).ToArray();

    [Test]
    public void The_schema_names_exactly_the_catalogs_detectors()
    {
        JsonNode schema = JsonNode.Parse(File.ReadAllText(Path.Combine(Repo.Root, "schemas", "diagext-report.v1.schema.json")))!;
        string[] named = schema["definitions"]!["finding"]!["properties"]!["detector"]!["enum"]!.AsArray().Select(n => n!.GetValue<string>()).ToArray();
        Assert.That(named, Is.EquivalentTo(Detectors));
    }

    [Test]
    public void Every_detector_is_a_command_in_the_debugger_and_help_list()
    {
        Diagext.Result list = Diagext.Run("help", "--list");
        Assert.That(list.ExitCode, Is.Zero, list.Stderr);
        string[] lines = list.Stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.That(lines.Select(l => l.Split('\t')[0]), Is.EqualTo(CommandCatalog.All.Select(c => c.Name)));
        foreach (string detector in Detectors)
            Assert.That(lines, Has.One.StartsWith($"{detector}\tdebugger\t{DetectorCatalog.Find(detector)!.Description}"), detector);
        Assert.That(lines.Single(l => l.StartsWith("ps\t", StringComparison.Ordinal)), Does.StartWith("ps\tcli\t"), "a command that makes no sense in a debugger is no export");
    }

    [Test]
    public void Help_list_takes_no_command_name() =>
        Assert.That(Diagext.Run("help", "dictcycle", "--list").ExitCode, Is.EqualTo(2));
}
