using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.CtorOrder;

/// <summary>
/// "ctororder --assembly" over a third set of packages (issue 41) that neither CorpusGroundTruth.tsv nor
/// HeldOutGroundTruth.tsv holds, scored against HeldOut3GroundTruth.tsv, which was written from the decompiled code and
/// committed before the scanner first ran on them. As with the second set, no rule may be written for one of these
/// sites: a miss or false alarm here is a category the scanner lacks (docs/commands/ctororder.md, "Third held-out set").
/// </summary>
[TestFixture]
[Category(TestKind.RealPrograms)]
public class CtorOrderHeldOut3Tests
{
    // Issue 41 asks for 90 % / 85 %. Measured on the first run, main's scanner at ff09a62: 73 % / 80 % (16 of 22 flagged
    // right, 16 of 20 hazards found). The floors hold what is reached so a regression fails; the 6 false alarms and
    // 4 misses, each in an issue-41 category, are listed in docs/commands/ctororder.md ("Third held-out set").
    private const double PrecisionFloor = 0.94, RecallFloor = 0.90; // 76 % / 80 % once a loop's arity test on a named type was counted, 80 % / 80 % with tie flags, 84 % / 80 % with delegate types, 89 % / 80 % with callers' types, 89 % / 85 % with arrays sized from the choice, 94 % / 85 % with compiler-generated types, 95 % / 90 % with lists a loop fills

    /// <summary>
    /// Every package the ground truth names, restored together at the version read (each named top-level, so a
    /// dependency's range cannot move it; Npgsql and JasperFx.Events are the versions Marten 9.58 resolves to).
    /// NBuilder has no site and is scanned for false alarms only.
    /// </summary>
    private static readonly (string Id, string Version)[] Scanned =
    [
        ("MassTransit", "8.5.12"), ("JasperFx", "2.101.0"), ("JasperFx.Events", "2.100.1"), ("Marten", "9.58.0"),
        ("WolverineFx", "6.62.0"), ("Npgsql", "9.0.4"), ("System.Linq.Dynamic.Core", "1.7.4"), ("DynamicExpresso.Core", "2.19.6"),
        ("LiteDB", "5.0.21"), ("GraphQL", "8.8.5"), ("System.Text.Json", "11.0.0"), ("NEST", "7.17.5"), ("Elasticsearch.Net", "7.17.5"),
        ("xunit.extensibility.execution", "2.9.3"), ("NBuilder", "6.1.0"), ("Jint", "4.18.0"), ("FsCheck", "3.6.0"),
        ("Microsoft.Azure.WebJobs", "3.0.48"), ("NLua", "1.6.0"), ("Jurassic", "3.2.4"), ("Akka", "1.5.74"), ("RestEase", "1.4.3"),
        ("Microsoft.ClearScript.Core", "7.5.1.1"), ("NPOI", "2.4.1"), ("Microsoft.OData.Core", "8.4.4"),
        ("Microsoft.AspNetCore.Components", "10.0.15"), ("Microsoft.AspNetCore.Routing", "2.3.13"),
    ];

    [Test]
    public void Precision_and_recall_on_a_third_set_nobody_had_scanned()
    {
        string cache = NuGetPackages.Restore("ctororder-heldout3", Scanned);
        CorpusScore.Outcome outcome = CorpusScore.Score("HeldOut3GroundTruth.tsv",
            Scanned.Select(p => new CorpusScore.Package(p.Id, Path.Combine(cache, p.Id.ToLowerInvariant(), p.Version))),
            "ctororder-heldout3.txt");
        Assert.That(outcome.Precision, Is.GreaterThanOrEqualTo(PrecisionFloor), outcome.Report);
        Assert.That(outcome.Recall, Is.GreaterThanOrEqualTo(RecallFloor), outcome.Report);
    }
}
