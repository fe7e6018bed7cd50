using DiagExt.Tests.Infrastructure;
using Microsoft.Playwright;

namespace DiagExt.Tests.Batch;

/// <summary>
/// The batch HTML report in a real browser (<see cref="HeadlessChromium"/>): a batch over the suite's mixed folder
/// (<see cref="BatchFolder"/>), a Monitor deadlock (which draws a ring) and two dumps of one stuck chain (a series, which
/// draws its threads x dumps grid), opened from a file:// URL as a user opens
/// it. What string checks of the page cannot show: the table sorts, a finding opens, its fields read as JSON with
/// line breaks, every drawing has a size, and the page logs no error (its Content-Security-Policy included).
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class BatchHtmlBrowserTests
{
    [Test]
    public async Task The_report_sorts_expands_shows_readable_fields_and_draws_every_ring()
    {
        // The browser first: where it cannot start, no dump is made for nothing.
        await using HeadlessChromium chromium = await HeadlessChromium.StartOrIgnoreAsync();
        string html = WriteTheReport();
        IPage page = await chromium.Browser.NewPageAsync(new BrowserNewPageOptions { ViewportSize = new ViewportSize { Width = 1400, Height = 900 } });
        var errors = new List<string>();
        page.Console += (_, message) => { if (message.Type == "error") errors.Add(message.Text); };
        page.PageError += (_, error) => errors.Add(error);
        await page.GotoAsync(new Uri(html).AbsoluteUri);

        await SortsByResult(page);
        await FitsTheWindow(page);
        await ExpandsAFinding(page);
        await ShowsFieldsAsReadableJson(page);
        await DrawsEveryRing(page);

        // For a person to look at (artifacts/test-work/browser-report/report.png): what no assertion judges.
        await page.ScreenshotAsync(new PageScreenshotOptions { Path = Path.ChangeExtension(html, ".png"), FullPage = true });
        Assert.That(errors, Is.Empty, "console errors");
    }

    private static string WriteTheReport()
    {
        string folder = Path.Combine(Repo.WorkDirectory, "browser-report");
        Directory.CreateDirectory(folder);
        string html = Path.Combine(folder, "report.html");
        DumpSeriesMaker.Series series = DumpSeriesMaker.Of("Hangs", "chain", 2, TimeSpan.FromSeconds(3));
        Diagext.Result run = Diagext.Run("analyze", BatchFolder.Path, HangSample.Of("monitor3", 1).Path, series.Dumps[0], series.Dumps[1], "--html", html, "--quiet");
        Assert.That(run.ExitCode, Is.EqualTo(1), run.Stdout + run.Stderr);
        return html;
    }

    private static Task<string[]> Column(IPage page, int column) =>
        page.EvalOnSelectorAllAsync<string[]>("#dumps tbody tr", $"rows => rows.map(r => r.cells[{column}].getAttribute('data-sort') ?? r.cells[{column}].textContent)");

    private static async Task SortsByResult(IPage page)
    {
        string[] namesBefore = await Column(page, 0);
        await page.ClickAsync("#dumps th:has-text('Result')");
        double[] ascending = (await Column(page, 1)).Select(double.Parse).ToArray();
        Assert.That(ascending, Is.Ordered.Ascending, "first click: failures first");
        Assert.That(await Column(page, 0), Is.Not.EqualTo(namesBefore), "the rows moved");
        await page.ClickAsync("#dumps th:has-text('Result')");
        double[] descending = (await Column(page, 1)).Select(double.Parse).ToArray();
        Assert.That(descending, Is.Ordered.Descending, "second click: hazards first");
        Assert.That(await page.TextContentAsync("#dumps th[data-dir='desc']"), Does.Contain("Result"));
    }

    /// <summary>The page never scrolls sideways: a table wider than the window scrolls in its own box.</summary>
    private static async Task FitsTheWindow(IPage page)
    {
        int[] widths = await page.EvaluateAsync<int[]>("() => [document.documentElement.scrollWidth, window.innerWidth]");
        Assert.That(widths[0], Is.LessThanOrEqualTo(widths[1]), "page width against the window's");
    }

    private static async Task ExpandsAFinding(IPage page)
    {
        ILocator finding = page.Locator("details.finding").First;
        Assert.That(await finding.Locator(".body").IsVisibleAsync(), Is.False, "findings start closed");
        await finding.Locator("summary").First.ClickAsync();
        Assert.That(await finding.Locator(".body").IsVisibleAsync(), Is.True, "clicking its summary opens it");
        Assert.That(await finding.EvaluateAsync<bool>("d => d.open"), Is.True);
    }

    private static async Task ShowsFieldsAsReadableJson(IPage page)
    {
        await page.ClickAsync("#expand-all");
        ILocator fields = page.Locator("details.fields");
        Assert.That(await fields.CountAsync(), Is.GreaterThan(0));
        await fields.EvaluateAllAsync<int>("all => { all.forEach(d => d.open = true); return all.length; }");
        string[] values = await page.EvalOnSelectorAllAsync<string[]>("details.fields dd", "dds => dds.map(d => d.innerText)");
        Assert.That(values, Has.None.Contains("\\u000a").And.None.Contains("\\u0022").And.None.Contains("\\u003c"), "no JSON encoder escapes");
        string[] blocks = await page.EvalOnSelectorAllAsync<string[]>("details.fields dd pre", "pres => pres.map(p => p.innerText)");
        Assert.That(blocks, Is.Not.Empty, "structured fields (a cycle's ring, a table's defects) are shown as JSON blocks");
        Assert.That(blocks, Has.All.Contains("\n"), "with real line breaks");
        Assert.That(await page.Locator("details.fields dd pre").First.IsVisibleAsync(), Is.True);
    }

    private static async Task DrawsEveryRing(IPage page)
    {
        Assert.That(await page.Locator("svg.ring").CountAsync(), Is.GreaterThan(0), "the Monitor deadlock's ring");
        Assert.That(await page.Locator("svg.series-grid").CountAsync(), Is.EqualTo(1), "the chain series' grid");
        Assert.That(await page.Locator("svg.series-grid rect.same").CountAsync(), Is.EqualTo(3), "the chain's three threads: the same wait in the second dump");
        Assert.That(await page.Locator("section.series li.hazard").TextContentAsync(), Does.Match("stuck behind thread 0x[0-9a-f]+ for at least"));
        double[][] sizes = await page.EvalOnSelectorAllAsync<double[][]>("svg", "all => all.map(s => { const r = s.getBoundingClientRect(); return [r.width, r.height]; })");
        string said = string.Join(", ", sizes.Select(s => $"{s[0]}x{s[1]}"));
        Assert.That(sizes.Count(s => !(s[0] > 0 && s[1] > 0)), Is.Zero, $"every drawing has a size once its finding is open: {said}");
    }
}
