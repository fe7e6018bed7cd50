using DiagExt.Core.Catalog;
using System.Text.Json.Serialization.Metadata;
using DiagExt.Core.Analysis;
using DiagExt.Core.Reports;

namespace DiagExt.Tests.Cli;

/// <summary>
/// The JSON contracts are generated at compile time, which cannot see a finding record through Finding: a detector
/// whose record lacks its own context (a JsonSerializerContext in its folder, handed over as its FindingContract)
/// would fail only when it first finds something. No reflection resolver backs them, so a missing one shows here.
/// </summary>
[TestFixture]
public class ReportJsonContextTests
{
    [Test]
    public void Every_detectors_finding_record_has_a_generated_contract()
    {
        foreach (IDetector detector in DetectorCatalog.CreateAll())
        {
            Assert.That(detector.Contract.Detector, Is.EqualTo(detector.Name));
            Assert.That(detector.Contract.Resolver.GetTypeInfo(detector.Contract.FindingType, DetectorCatalog.Json.Options), Is.Not.Null,
                $"{detector.Contract.FindingType.Name}: its detector's JsonSerializerContext must list it");
            Assert.That(DetectorCatalog.Json.Options.TryGetTypeInfo(detector.Contract.FindingType, out JsonTypeInfo? info), Is.True);
            Assert.That(info!.Properties.Select(p => p.Name), Does.Contain("detector").And.Contain("severity"), detector.Name);
        }
    }
}
