using DiagExt.Core.Analysis;
using DiagExt.Core.Detectors.DictCycle;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.DictCycle;

/// <summary>
/// The bench's read-floor hook (bench/run.sh prices dictcycle's reading of its tables with it): set, dictcycle reads
/// the tables and classifies none, and says so in a note, so a report taken with it can never pass for a real one;
/// unset, the same dump's corrupt table is found as always.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class ReadFloorTests
{
    [Test]
    public void With_the_hook_tables_are_read_not_classified_and_the_report_says_so()
    {
        string dump = DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core");
        DetectorOutcome normal = DictCycleOutcome(dump);
        Assert.That(normal.Findings, Is.Not.Empty, "the sample's corrupt table, without the hook");
        Assert.That(normal.Reason ?? "", Does.Not.Contain(ReadFloor.Variable));

        Environment.SetEnvironmentVariable(ReadFloor.Variable, "1");
        DetectorOutcome floor;
        try
        {
            floor = DictCycleOutcome(dump);
        }
        finally
        {
            Environment.SetEnvironmentVariable(ReadFloor.Variable, null);
        }
        Assert.That(floor.Status, Is.EqualTo(DetectorStatus.Ran));
        Assert.That(floor.Findings, Is.Empty);
        Assert.That(floor.Reason, Does.Contain(ReadFloor.Note));
    }

    private static DetectorOutcome DictCycleOutcome(string dump)
    {
        using Target target = TargetOpener.OpenDump(dump);
        return Analyzer.Run(target, [new DictCycleDetector()]).Outcomes.Single();
    }
}
