using System.Text.RegularExpressions;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Batch;

/// <summary>
/// 'analyze a.core --html r.html': asking for a report file must not change what the terminal shows. The one
/// dump's own report is printed, exactly as without the option, and the file holds the same finding.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class OneDumpReportFileTests
{
    [Test]
    public void One_dump_with_a_report_file_prints_its_own_report_and_writes_the_file()
    {
        string dump = DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core");
        string html = Path.Combine(Repo.WorkDirectory, "one-dump-report.html");
        File.Delete(html);

        Diagext.Result plain = Diagext.Run("analyze", dump);
        Diagext.Result withFile = Diagext.Run("analyze", dump, "--html", html, "--quiet");

        Assert.That(withFile.ExitCode, Is.EqualTo(plain.ExitCode));
        Assert.That(Timeless(withFile.Stdout), Is.EqualTo(Timeless(plain.Stdout) + $"wrote {html}\n"));
        // The sample's race leaves a self-cycle on most runs and a longer cycle on some (a CI run saw 7 -> 8 -> 7).
        Assert.That(File.ReadAllText(html), Does.Match(@"<span class=""kind"">(self-)?cycle</span>"));
    }

    /// <summary>The report without its times ("in 0.45s"), which differ from run to run.</summary>
    private static string Timeless(string report) => Regex.Replace(report, @" in \d+(\.\d+)?s", " in Xs");
}
