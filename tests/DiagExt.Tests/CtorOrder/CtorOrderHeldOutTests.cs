using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.CtorOrder;

/// <summary>
/// "ctororder --assembly" over packages nobody here had scanned (issue 28), scored against HeldOutGroundTruth.tsv,
/// which was written from the decompiled code and committed before the scanner first ran on them. No rule may be
/// written for one of these sites: a miss here is a category the scanner lacks, fixed for every package and re-measured
/// on both sets (CtorOrderCorpusTests is the development set).
/// </summary>
[TestFixture]
[Category(TestKind.RealPrograms)]
public class CtorOrderHeldOutTests
{
    // Issue 28 asks for 90 % / 85 %. Measured 83 % / 88 % (15 of 18 flagged right, 15 of 17 hazards found), 88 % / 88 %
    // (15 of 17) once a local function's captured type was settled by its caller's generic-definition test (issue 41),
    // 89 % / 94 % (16 of 18, 16 of 17) with a position carried from one type's list to another's: the floors hold what is
    // reached so a regression fails; the two false alarms left are picks on types no scanned metadata settles
    // (docs/commands/ctororder.md).
    private const double PrecisionFloor = 0.88, RecallFloor = 0.94;

    /// <summary>Packages restored together, with the assemblies scanned for each ground-truth package name.</summary>
    private static readonly (string Id, string Version)[] Restored =
    [
        ("AutoMapper", "14.0.0"), ("linq2db", "6.5.1"), ("Microsoft.EntityFrameworkCore", "10.0.15"), ("FakeItEasy", "6.0.1"),
        ("McMaster.Extensions.CommandLineUtils", "2.3.0"), ("Spectre.Console.Cli", "0.57.2"), ("Cocona", "2.2.0"),
        ("MongoDB.Bson", "3.14.0"), ("SharpYaml", "3.17.0"), ("Tomlyn", "2.10.2"), ("Hyperion", "0.12.2"), ("Quartz", "4.7.3"),
        ("System.ComponentModel.Composition", "11.0.0"), ("System.Composition.TypedParts", "10.0.15"),
        ("xunit.v3.extensibility.core", "4.0.2"), ("Serilog.Settings.Configuration", "10.0.1"),
        ("Microsoft.Extensions.Configuration.Binder", "11.0.0"), ("FluentAssertions", "7.2.2"), ("Hangfire.Core", "1.8.25"),
    ];

    /// <summary>Lamar pins Microsoft.Extensions.DependencyInjection.Abstractions below 5.9, which the others cannot share.</summary>
    private static readonly (string Id, string Version)[] RestoredApart = [("Lamar", "4.3.1")];

    /// <summary>Every package the ground truth names, with the version restored (dependencies as they resolve).</summary>
    private static readonly (string Id, string Version, bool Apart)[] Scanned =
    [
        ("AutoMapper", "14.0.0", false), ("Lamar", "4.3.1", true), ("LamarCodeGeneration", "2.3.0", true), ("linq2db", "6.5.1", false),
        ("Microsoft.EntityFrameworkCore", "10.0.15", false), ("FakeItEasy", "6.0.1", false),
        ("McMaster.Extensions.CommandLineUtils", "2.3.0", false), ("Spectre.Console.Cli", "0.57.2", false), ("Cocona.Core", "2.2.0", false),
        ("MongoDB.Bson", "3.14.0", false), ("SharpYaml", "3.17.0", false), ("Tomlyn", "2.10.2", false), ("Hyperion", "0.12.2", false),
        ("Quartz", "4.7.3", false), ("System.ComponentModel.Composition", "11.0.0", false), ("System.Composition.TypedParts", "10.0.15", false),
        ("System.Composition.Hosting", "10.0.15", false), ("xunit.v3.extensibility.core", "4.0.2", false),
        ("Serilog.Settings.Configuration", "10.0.1", false), ("Serilog", "4.3.0", false), ("Microsoft.Extensions.Configuration.Binder", "11.0.0", false),
        ("FluentAssertions", "7.2.2", false), ("Hangfire.Core", "1.8.25", false),
    ];

    [Test]
    public void Precision_and_recall_on_code_the_rules_were_not_written_for()
    {
        string cache = NuGetPackages.Restore("ctororder-heldout", Restored);
        string apart = NuGetPackages.Restore("ctororder-heldout-lamar", RestoredApart);
        CorpusScore.Outcome outcome = CorpusScore.Score("HeldOutGroundTruth.tsv",
            Scanned.Select(p => new CorpusScore.Package(p.Id, Path.Combine(p.Apart ? apart : cache, p.Id.ToLowerInvariant(), p.Version))),
            "ctororder-heldout.txt");
        Assert.That(outcome.Precision, Is.GreaterThanOrEqualTo(PrecisionFloor), outcome.Report);
        Assert.That(outcome.Recall, Is.GreaterThanOrEqualTo(RecallFloor), outcome.Report);
    }
}
