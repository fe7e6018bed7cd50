using System.Text.RegularExpressions;
using DiagExt.Core.Reports;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Cli;

/// <summary>
/// --dml-console, which the WinDbg extension always passes: reports default to DML, and whatever the user asks
/// for instead (--json, --format text, help) arrives escaped, so every line the extension relays is valid DML
/// and reads as diagext wrote it. The extension then needs no copy of diagext's option grammar.
/// </summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public partial class DmlConsoleTests
{
    // A static scan is the cheapest report there is: diagext's own core, no process.
    private static readonly string Assembly = typeof(Finding).Assembly.Location;

    [GeneratedRegex(@"(in \d+\.\d+s|elapsedMs&quot;: [\d.]+|elapsedMs"": [\d.]+)")]
    private static partial Regex Timing();

    private static string Untimed(string text) => Timing().Replace(text, "T");

    private static string Decode(string dml) => dml.Replace("&lt;", "<").Replace("&gt;", ">").Replace("&quot;", "\"").Replace("&amp;", "&");

    [Test]
    public void Without_a_format_the_report_is_dml()
    {
        Diagext.Result dml = Diagext.Run("ctororder", "--assembly", Assembly, "--format", "dml");
        Diagext.Result console = Diagext.Run("ctororder", "--dml-console", "--assembly", Assembly);
        Assert.That(console.ExitCode, Is.EqualTo(dml.ExitCode), console.Stderr);
        Assert.That(Untimed(console.Stdout), Is.EqualTo(Untimed(dml.Stdout)));
    }

    [Test]
    public void Json_asked_for_arrives_escaped_and_decodes_to_the_same_json()
    {
        Diagext.Result json = Diagext.Run("ctororder", "--assembly", Assembly, "--json");
        Diagext.Result console = Diagext.Run("ctororder", "--assembly", Assembly, "--json", "--dml-console");
        Assert.That(console.ExitCode, Is.EqualTo(json.ExitCode), console.Stderr);
        Assert.That(DmlChecker.Problems(console.Stdout), Is.Empty);
        Assert.That(console.Stdout, Does.Contain("&quot;schemaVersion&quot;: 1"));
        Assert.That(Untimed(Decode(console.Stdout)), Is.EqualTo(Untimed(json.Stdout)));
    }

    [Test]
    public void Help_arrives_escaped()
    {
        Diagext.Result help = Diagext.Run("help", "dictcycle", "--dml-console");
        Assert.That(help.ExitCode, Is.EqualTo(0), help.Stderr);
        Assert.That(DmlChecker.Problems(help.Stdout), Is.Empty);
        Assert.That(help.Stdout, Does.Contain("&lt;dump&gt;").And.Not.Contain("<dump>"));
    }

    [Test]
    public void After_a_double_dash_it_is_a_file_name() =>
        Assert.That(Diagext.Run("dictcycle", "--", "--dml-console").Stderr, Does.Contain("--dml-console"));
}
