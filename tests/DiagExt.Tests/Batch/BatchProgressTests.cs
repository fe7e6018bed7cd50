using DiagExt.Tests.Infrastructure;
using DiagExt.Cli.Batch;

namespace DiagExt.Tests.Batch;

/// <summary>The progress reporter, driven by a hand-moved clock: what each mode writes, and how often.</summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class BatchProgressTests
{
    private sealed class ManualClock : TimeProvider
    {
        private long _ticks;

        public override long TimestampFrequency => TimeSpan.TicksPerSecond;

        public override long GetTimestamp() => _ticks;

        public void Advance(TimeSpan by) => _ticks += by.Ticks;
    }

    [Test]
    public void Quiet_writes_nothing()
    {
        var error = new StringWriter();
        var progress = new BatchProgress(error, ProgressMode.Quiet, new ManualClock());
        progress.Message("comparing");
        progress.Begin(2);
        progress.Started("a.dmp");
        progress.Finished("a.dmp", "1 finding");
        progress.Tick();
        progress.End();
        Assert.That(error.ToString(), Is.Empty);
    }

    [Test]
    public void Lines_mode_writes_one_line_per_dump_and_a_heartbeat_at_most_every_30_seconds()
    {
        var error = new StringWriter();
        var clock = new ManualClock();
        var progress = new BatchProgress(error, ProgressMode.Lines, clock);
        progress.Begin(2);
        progress.Started("dumps/a.dmp");
        progress.Started("dumps/big.core");
        progress.Finished("dumps/a.dmp", "no hazard (0.4s)");
        for (int i = 0; i < 10; i++)
        {
            clock.Advance(TimeSpan.FromSeconds(10));
            progress.Tick();
        }
        progress.Finished("dumps/big.core", "1 finding (100.0s)");
        progress.End();

        string[] lines = error.ToString().Split(Environment.NewLine, StringSplitOptions.RemoveEmptyEntries);
        Assert.That(lines[0], Is.EqualTo("[1/2] dumps/a.dmp: no hazard (0.4s)"));
        Assert.That(lines[^1], Is.EqualTo("[2/2] dumps/big.core: 1 finding (100.0s)"));
        string[] heartbeats = lines.Where(l => l.StartsWith("still analysing", StringComparison.Ordinal)).ToArray();
        Assert.That(heartbeats, Has.Length.EqualTo(3), "100 s of ticks every 10 s, a heartbeat at most every 30 s");
        Assert.That(heartbeats[0], Is.EqualTo("still analysing big.core (0:30)"));
        Assert.That(error.ToString(), Does.Not.Contain("\r"));
    }

    [Test]
    public void Bar_mode_redraws_one_line_at_most_ten_times_a_second_and_clears_it_at_the_end()
    {
        var error = new StringWriter();
        var clock = new ManualClock();
        var progress = new BatchProgress(error, ProgressMode.Bar, clock, width: 100);
        progress.Begin(4);
        int afterBegin = Redraws(error);
        for (int i = 0; i < 50; i++)
        {
            clock.Advance(TimeSpan.FromMilliseconds(10));
            progress.Tick();
        }
        int redraws = Redraws(error) - afterBegin;
        Assert.That(redraws, Is.InRange(4, 5), "500 ms of ticks every 10 ms");

        progress.Started("dumps/a.dmp");
        clock.Advance(TimeSpan.FromSeconds(1));
        progress.Finished("dumps/a.dmp", "1 finding");
        string text = error.ToString();
        Assert.That(text, Does.Contain("[#####...............] 1/4 dumps  0:01"));
        Assert.That(text, Does.Not.Contain("\n"), "a terminal gets one live line, no scrolling");

        progress.End();
        Assert.That(error.ToString(), Does.EndWith("\r\u001b[K"));
    }

    [Test]
    public void Bar_lines_are_cut_to_the_terminal_width_and_names_from_dumps_are_sanitized()
    {
        var error = new StringWriter();
        var clock = new ManualClock();
        var progress = new BatchProgress(error, ProgressMode.Bar, clock, width: 80);
        progress.Begin(1);
        clock.Advance(TimeSpan.FromSeconds(1));
        progress.Started("dumps/evil\u001b[2Jname-that-goes-on-and-on-and-on-and-on.dmp");
        string last = error.ToString().Split('\r').Last(s => s.Length > 0);
        Assert.That(last.Replace("\u001b[K", "").Length, Is.LessThanOrEqualTo(79));
        Assert.That(last, Does.Contain("evil\\u001b[2J"));
    }

    private static int Redraws(StringWriter error) => error.ToString().Count(c => c == '\r');
}
