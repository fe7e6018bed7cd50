using DiagExt.Tests.Infrastructure;
using DiagExt.Core.Detectors.DictCycle;

namespace DiagExt.Tests.DictCycle;

/// <summary>
/// The verdict names what the heap's census of the table's exceptions shows was thrown, not only what the layout
/// predicts (seen on .NET Core 3.1.3: a loop, yet TryInsert ran past the entries and threw IndexOutOfRangeException).
/// The census itself comes from real dumps (DictCycleSeedAttributionTests checks it there); these are the words.
/// </summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class DictCycleVerdictTests
{
    private static readonly HashTableDefect Loop = new(DefectKind.SelfCycle, [1], [3], "entries[1].next == 1");
    private static readonly HashTableDefect Past = new(DefectKind.NextOutOfRange, [4], [2], "entries[4].next == 9");

    private static ExceptionCount Thrown(string type, int count, string thrower = "Dictionary<__Canon, Int32>.TryInsert") =>
        new(type, thrower, "Program.Modify", count, ByTypeOnly: false, AtLeast: false);

    [Test]
    public void Without_a_census_the_layout_says_what_lookups_do() =>
        Assert.Multiple(() =>
        {
            Assert.That(DictCycleVerdict.Verdict(Loop, HashTableLayout.ModernDictionary, []), Is.EqualTo("lookups throw InvalidOperationException"));
            Assert.That(DictCycleVerdict.Verdict(Loop, HashTableLayout.FrameworkDictionary, []), Is.EqualTo("lookups never return"));
        });

    [Test]
    public void A_census_of_invalid_operations_on_a_loop_agrees_with_the_layout() =>
        Assert.That(DictCycleVerdict.Verdict(Loop, HashTableLayout.ModernDictionary, [Thrown("InvalidOperationException", 40)]),
            Is.EqualTo("lookups throw InvalidOperationException"));

    [Test]
    public void Both_kinds_are_named_when_both_were_thrown_most_frequent_first()
    {
        IReadOnlyList<ExceptionCount> census = [Thrown("InvalidOperationException", 12), Thrown("IndexOutOfRangeException", 30), Thrown("InvalidOperationException", 25, "ThrowHelper.ThrowInvalidOperationException_ConcurrentOperationsNotSupported")];
        Assert.That(DictCycleVerdict.Verdict(Loop, HashTableLayout.ModernDictionary, census),
            Is.EqualTo("calls on it throw InvalidOperationException and IndexOutOfRangeException"));
    }

    [Test]
    public void Only_what_was_thrown_is_named_even_against_the_layouts_prediction() =>
        Assert.Multiple(() =>
        {
            Assert.That(DictCycleVerdict.Verdict(Loop, HashTableLayout.ModernDictionary, [Thrown("IndexOutOfRangeException", 3)]),
                Is.EqualTo("calls on it throw IndexOutOfRangeException"));
            Assert.That(DictCycleVerdict.Verdict(Past, HashTableLayout.ModernDictionary, [Thrown("IndexOutOfRangeException", 3)]),
                Is.EqualTo("calls on it throw IndexOutOfRangeException"));
            Assert.That(DictCycleVerdict.Verdict(Loop, HashTableLayout.FrameworkDictionary, [Thrown("IndexOutOfRangeException", 3)]),
                Is.EqualTo("lookups never return; calls on it throw IndexOutOfRangeException"));
        });
}
