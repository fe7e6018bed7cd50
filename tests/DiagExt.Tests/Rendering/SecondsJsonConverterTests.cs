using DiagExt.Tests.Infrastructure;
using System.Text.Json;
using DiagExt.Core.Reports;

namespace DiagExt.Tests.Rendering;

/// <summary>
/// A batch reads its workers' JSON back into TimeSpans and writes it again: a duration must come back as the same
/// number (seen failing on a live process's CPU time, 0.4099999 read back as 0.4099998).
/// </summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class SecondsJsonConverterTests
{
    private static readonly JsonSerializerOptions Options = new() { Converters = { new SecondsJsonConverter() } };

    [TestCase("0.4099999")]
    [TestCase("1.5")]
    [TestCase("0.001")]
    [TestCase("123.4567891")]
    public void A_duration_written_in_seconds_reads_back_as_the_same_number(string seconds)
    {
        TimeSpan read = JsonSerializer.Deserialize<TimeSpan>(seconds, Options);

        Assert.That(JsonSerializer.Serialize(read, Options), Is.EqualTo(seconds));
    }
}
