using DiagExt.Core;
using DiagExt.Core.Analysis;
using DiagExt.Core.Rendering;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Rendering;

/// <summary>
/// Every place the console renderer writes a string from the target, filled with hostile text: the DML
/// must stay clean and its only links must be the ones built from numbers. (The renderer's own " &lt;- "
/// between frames once opened a tag that swallowed the rest of the thread block in WinDbg.)
/// </summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class DmlReportTests
{
    private sealed record ProbeFinding : Finding
    {
        public override string Detector => "probe";
    }

    private static string RenderDml(string hostile, bool managedTarget = true)
    {
        var finding = new ProbeFinding
        {
            Kind = "probe",
            Title = $"title {hostile}",
            Summary = $"summary {hostile}",
            Evidence = [Markup.Line().Text($"type {hostile} at ").Object(0x7f00dead).Text(" code ").Native(0x401000).Text($" {hostile}"), Markup.Text(hostile)],
            Threads = [new ThreadRef { OsThreadId = 0x1ab9, ManagedThreadId = 7, Role = $"role {hostile}", Frame = $"frame {hostile}", CallerFrame = $"caller {hostile}", UserCpu = TimeSpan.FromSeconds(1.5), KernelCpu = TimeSpan.FromSeconds(0.25) }],
            Advice = $"advice {hostile}",
        };
        var target = new TargetSummary($"dump {hostile}", TargetKind.WindowsMinidump, "WINDOWS", "x64", null, 3,
            new RuntimeStatus(RuntimeAvailability.Loaded, "10.0.1", ".NET", null), null, $"cpu {hostile}");
        var report = new AnalysisReport(target,
            [new DetectorOutcome("probe", DetectorStatus.Ran, null, [finding], TimeSpan.FromSeconds(1)),
             new DetectorOutcome("other", DetectorStatus.Skipped, $"reason {hostile}", [], TimeSpan.Zero)],
            42, TimeSpan.FromSeconds(1));
        var output = new StringWriter();
        new ConsoleReportRenderer(new DmlStyle(managedTarget)).Render(report, output);
        return output.ToString();
    }

    [TestCaseSource(typeof(HostileStrings), nameof(HostileStrings.Cases))]
    public void Hostile_text_everywhere_leaves_only_diagexts_own_links(string hostile)
    {
        string dml = RenderDml(hostile);
        Assert.That(DmlChecker.Problems(dml), Is.Empty, dml);
        Assert.That(DmlChecker.LinkCommands(dml), Is.EqualTo(new[] { "!DumpObj /d 0x7f00dead", "dq 0x401000 L8", "~~[0x1ab9]s; !clrstack" }), dml);
    }

    [Test]
    public void In_a_process_without_dotnet_thread_links_show_the_native_stack() =>
        Assert.That(DmlChecker.LinkCommands(RenderDml("x", managedTarget: false)), Has.Member("~~[0x1ab9]s; k").And.No.Contains("!clrstack"));

    [Test]
    public void The_caller_frame_and_cpu_time_survive_on_the_thread_line()
    {
        string dml = RenderDml("x");
        Assert.That(dml, Does.Contain("at frame x &lt;- caller x; CPU user 1.500s kernel 0.250s"));
    }
}
