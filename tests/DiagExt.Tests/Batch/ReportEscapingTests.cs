using DiagExt.Tests.Infrastructure;
using DiagExt.Core;
using DiagExt.Core.Catalog;
using DiagExt.Core.Analysis;
using DiagExt.Core.Detectors.DictCycle;
using DiagExt.Core.Rendering;
using DiagExt.Core.Rendering.Batch;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Tests.Batch;

/// <summary>
/// Strings in a report come from the dump (type names, keys, file names): the HTML and Markdown renderers
/// must not let one open a tag, run a script, start a list or plant a link. Pure renderer tests: the
/// report below is what a hostile dump could make diagext print, read back from its JSON as a batch reads it.
/// </summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class ReportEscapingTests
{
    private const string Hostile = "Dictionary<script>alert(1)</script> & \"q\" 'a' | *b* [l](http://evil.example) `c` \u001b[2J\u202e";

    private static BatchReport ReportWith(string text)
    {
        var finding = new DictCycleFinding
        {
            Kind = "self-cycle",
            Title = text,
            Summary = text,
            Threads = [new ThreadRef { OsThreadId = 42, Role = text, Frame = text }],
            Evidence = [Markup.Text("1. " + text), Markup.Text("- " + text)],
            Advice = text,
            Holder = text,
            Address = 0x1, Type = text, Layout = "net10", Count = 1, BucketsLength = 1, EntriesLength = 1, BucketsAddress = 0x2, EntriesAddress = 0x3,
            BadIndices = [0], BadBuckets = [0], Defects = [new DefectReport("self-cycle", [0], [0], text + "\nnext line")], Verdict = "never return",
        };
        var target = new TargetSummary(text, TargetKind.ElfCore, "Linux", "x64", null, 3, new RuntimeStatus(RuntimeAvailability.Loaded, "10.0.0", ".NET", null), null, null);
        var written = new AnalysisReport(target, [new DetectorOutcome("dictcycle", DetectorStatus.Ran, null, [finding], TimeSpan.Zero)], null, TimeSpan.Zero);
        // As a batch gets it: the analysing process's JSON, read back.
        var json = new StringWriter();
        DetectorCatalog.Json.Write(written, json);
        var dump = new DumpResult { Name = "dumps/" + text + ".dmp", Status = DumpStatus.Analysed, Report = DetectorCatalog.Json.Read(json.ToString()), Elapsed = TimeSpan.FromSeconds(1) };
        var failed = new DumpResult { Name = "dumps/<img src=x onerror=alert(2)>.dmp", Status = DumpStatus.Failed, Error = text };
        return new BatchReport(["dumps"], [dump, failed], [new SkippedFile("<b>readme</b>", text)], 2, TimeSpan.FromSeconds(3), false);
    }

    [Test]
    public void Html_report_escapes_every_string_from_the_dump()
    {
        var html = new StringWriter();
        BatchHtmlRenderer.Render(ReportWith(Hostile), html, DetectorCatalog.Json);
        string page = html.ToString();

        Assert.That(page, Does.Not.Contain("<script>alert"));
        Assert.That(page, Does.Not.Contain("<img"));
        Assert.That(page, Does.Not.Contain("<b>readme"));
        Assert.That(page, Does.Not.Contain("\u001b"));
        Assert.That(page, Does.Not.Contain("\u202e"));
        Assert.That(page, Does.Contain("Dictionary&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot; &#39;a&#39;"));
        Assert.That(page, Does.Contain("\\u001b[2J\\u202e"));
        Assert.That(page.Split("<script>").Length, Is.EqualTo(2), "only diagext's own script block");
    }

    [Test]
    public void Html_shows_structured_fields_as_readable_json_still_escaped()
    {
        var html = new StringWriter();
        BatchHtmlRenderer.Render(ReportWith(Hostile), html, DetectorCatalog.Json);
        string page = html.ToString();
        string fields = page[page.IndexOf("All fields of this finding", StringComparison.Ordinal)..];
        string defects = fields[fields.IndexOf("<dt>defects</dt>", StringComparison.Ordinal)..];
        defects = defects[..(defects.IndexOf("</dd>", StringComparison.Ordinal) + 5)];

        Assert.That(defects, Does.StartWith("<dt>defects</dt><dd><pre>[\n  {\n    &quot;kind&quot;: &quot;self-cycle&quot;,\n    &quot;indices&quot;: [0],\n"),
            "indented, with real line breaks; a list of numbers on one line");
        Assert.That(defects, Does.Not.Contain("\\u000a").And.Not.Contain("\\u003c").And.Not.Contain("\\u0026").And.Not.Contain("\\u0027"),
            "no escape of the JSON encoder or of the sanitizer where the text has a line break or markup");
        Assert.That(defects, Does.Contain("&quot;detail&quot;: &quot;Dictionary&lt;script&gt;alert(1)&lt;/script&gt; &amp; \\&quot;q\\&quot; &#39;a&#39;"));
        Assert.That(defects, Does.Contain("next line&quot;"), "a line break inside a string stays JSON's \\n");
        Assert.That(defects, Does.Contain("\\n").And.Not.Contain("\u001b").And.Not.Contain("\u202e"));
        Assert.That(defects, Does.Match(@"\\u001[bB]\[2J\\u202[eE]"), "invisible characters stay visible escapes");
    }

    [Test]
    public void Markdown_report_escapes_every_string_from_the_dump()
    {
        var markdown = new StringWriter();
        BatchMarkdownRenderer.Render(ReportWith(Hostile), markdown);
        string text = markdown.ToString();

        Assert.That(text, Does.Not.Contain("<script>").And.Not.Contain("<img"));
        Assert.That(text, Does.Not.Match(@"(?<!\\)\]\("), "no link: every ']' before '(' is escaped");
        Assert.That(text, Does.Contain("Dictionary&lt;script&gt;alert(1)&lt;/script&gt; &amp;"));
        Assert.That(text, Does.Contain("\\| \\*b\\* \\[l\\](http\\://evil.example) \\`c\\`"));
        Assert.That(text, Does.Contain("- 1\\. Dictionary"), "an evidence line cannot start a nested list");
        Assert.That(text, Does.Contain("- \\- Dictionary"));
        Assert.That(text, Does.Not.Contain("\u001b"));
    }

    [TestCase("www.evil.example", "www\\.evil.example")]
    [TestCase("# title", "\\# title")]
    [TestCase("a_b", "a\\_b")]
    [TestCase("plain text, 3.5 (ok)", "plain text, 3.5 (ok)")]
    [TestCase("0.1.0", "0.1.0")]
    [TestCase("3.8s", "3.8s")]
    [TestCase("1. item", "1\\. item")]
    [TestCase("12)", "12\\)")]
    public void Markdown_escaper(string input, string expected) => Assert.That(MarkdownEscaper.Escape(input), Is.EqualTo(expected));

    [Test]
    public void Console_summary_sanitizes_control_characters()
    {
        var text = new StringWriter();
        BatchTextRenderer.Render(ReportWith(Hostile), text);
        Assert.That(text.ToString(), Does.Not.Contain("\u001b").And.Not.Contain("\u202e"));
        Assert.That(text.ToString(), Does.Contain("\\u001b[2J"));
    }
}
