using DiagExt.Tests.Infrastructure;
using DiagExt.Fuzz;
using DiagExt.Fuzz.Engine;
using DiagExt.Fuzz.Targets;

namespace DiagExt.Tests.Fuzz;

/// <summary>
/// Every input that once made a reader crash, hang, run out of memory or break an output property
/// (tests/Fuzz/corpus/&lt;target&gt;/, listed in tests/Fuzz/README.md) is replayed through its fuzz target: it must
/// now pass every property.
/// </summary>
[TestFixture]
[Category(TestKind.FuzzSmoke)]
public class RegressionCorpusTests
{
    public static IEnumerable<TestCaseData> Inputs() =>
        TargetCatalog.All.SelectMany(t => InputFiles.In(FuzzPaths.RegressionCorpus(t.Name))
            .Select(file => new TestCaseData(t.Name, Path.GetFileName(file)).SetName($"{t.Name}/{Path.GetFileName(file)}")));

    [TestCaseSource(nameof(Inputs))]
    public void Replays_without_failure(string target, string file)
    {
        Replayer.Replay replay = Replayer.Run(TargetCatalog.Find(target), Path.Combine(FuzzPaths.RegressionCorpus(target), file), TimeSpan.FromSeconds(60));
        Assert.That(replay.Failure, Is.Null, () => $"{replay.Failure!.Signature}\n{replay.Failure.Detail}");
        TestContext.Out.WriteLine($"{replay.Result!.Signature} in {replay.Result.Elapsed.TotalMilliseconds:0} ms, {replay.Result.AllocatedBytes / 1024:N0} KB allocated");
    }

    [Test]
    public void Every_target_has_a_regression_corpus_folder_or_none_failed()
    {
        // The corpus only holds inputs that once failed; a target with none has had no defect. Either way the
        // inputs that are there are real files of that target.
        foreach (IFuzzTarget target in TargetCatalog.All)
            foreach (string file in InputFiles.In(FuzzPaths.RegressionCorpus(target.Name)))
                Assert.That(InputFiles.Read(file), Is.Not.Empty, file);
    }
}
