using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.CtorOrder;

/// <summary>
/// "ctororder --assembly" over every target framework of 17 real packages restored from NuGet, scored against
/// CorpusGroundTruth.tsv (each constructor-selecting method read in the decompiled code). A site is a method:
/// the same method in several target frameworks, or picking twice, counts once. Flagged means a warning or a hazard:
/// a pick reported as information (a type only its library knows) is not one. The floors are issue 15's targets.
/// </summary>
[TestFixture]
public class CtorOrderCorpusTests
{
    private const double PrecisionFloor = 0.90, RecallFloor = 0.80;

    private static readonly (string Id, string Version)[] Corpus =
    [
        ("Autofac", "9.3.3"), ("SimpleInjector", "4.9.1"), ("Microsoft.Extensions.DependencyInjection", "11.0.0"),
        ("LightInject", "7.1.1"), ("Grace", "7.1.1"),
        // 33.1.0, not 34: 34 rewrote object creation without reflection (no site left to score).
        ("CsvHelper", "33.1.0"), ("Newtonsoft.Json", "13.0.4"), ("YamlDotNet", "18.1.0"), ("MessagePack", "2.5.307"),
        ("protobuf-net", "3.4.40"), ("Moq", "4.21.0"), ("NSubstitute", "6.1.0"), ("AutoFixture", "4.18.1"),
        ("Castle.Core", "5.2.1"), ("Dapper", "2.1.86"), ("Mapster", "10.0.14"),
        // Added after the scanner's rules were written, as a check on code they were not made for.
        ("NUnit", "4.6.1"),
    ];

    /// <summary>Packages whose assemblies are scanned beside the corpus (dependencies that hold sites of their own).</summary>
    private static readonly (string Id, string Version)[] Dependencies =
    [
        ("Microsoft.Extensions.DependencyInjection.Abstractions", "11.0.0"), ("protobuf-net.Core", "3.4.40"), ("Mapster.Core", "10.0.14"),
    ];

    [Test]
    public void Precision_and_recall_over_real_packages()
    {
        string cache = NuGetPackages.Restore("ctororder-corpus", Corpus);
        CorpusScore.Outcome outcome = CorpusScore.Score("CorpusGroundTruth.tsv",
            Corpus.Concat(Dependencies).Select(p => new CorpusScore.Package(p.Id, Path.Combine(cache, p.Id.ToLowerInvariant(), p.Version))),
            "ctororder-corpus.txt");
        Assert.That(outcome.Precision, Is.GreaterThanOrEqualTo(PrecisionFloor), outcome.Report);
        Assert.That(outcome.Recall, Is.GreaterThanOrEqualTo(RecallFloor), outcome.Report);
    }
}
