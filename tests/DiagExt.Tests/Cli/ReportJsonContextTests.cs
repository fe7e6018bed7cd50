using System.Text.Json.Serialization.Metadata;
using DiagExt.Core.Analysis;
using DiagExt.Core.Reports;

namespace DiagExt.Tests.Cli;

/// <summary>
/// The JSON contracts are generated at compile time (ReportJsonContext), which cannot see a finding record through
/// Finding: a detector whose record lacks its line there would fail only when it first finds something.
/// </summary>
[TestFixture]
public class ReportJsonContextTests
{
    [Test]
    public void Every_detectors_finding_record_has_a_generated_contract()
    {
        foreach (IDetector detector in DetectorCatalog.CreateAll())
        {
            Assert.That(ReportJson.Options.TryGetTypeInfo(detector.FindingType, out JsonTypeInfo? info), Is.True,
                $"{detector.FindingType.Name} needs a [JsonSerializable] line in Reports/ReportJsonContext.cs");
            Assert.That(info!.Properties.Select(p => p.Name), Does.Contain("detector").And.Contain("severity"), detector.Name);
        }
    }
}
