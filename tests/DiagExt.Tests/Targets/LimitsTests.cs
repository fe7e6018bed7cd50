using DiagExt.Core;
using DiagExt.Core.Targets;

namespace DiagExt.Tests.Targets;

/// <summary>Each cap is checked where it is set: a cap of zero would make every bounded loop read nothing.</summary>
[TestFixture]
public class LimitsTests
{
    [Test]
    public void A_cap_of_zero_or_less_is_refused_by_name()
    {
        var e = Assert.Throws<ArgumentOutOfRangeException>(() => _ = Limits.Default with { MaxThreads = 0 });
        Assert.That(e!.ParamName, Is.EqualTo(nameof(Limits.MaxThreads)));
        Assert.Throws<ArgumentOutOfRangeException>(() => _ = Limits.Default with { MaxUnpackedBytes = -1 });
    }

    [Test]
    public void A_positive_cap_is_kept() =>
        Assert.That((Limits.Default with { MaxFramesPerThread = 7 }).MaxFramesPerThread, Is.EqualTo(7));
}
