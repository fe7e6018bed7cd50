using DiagExt.Core.Targets.Sources;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Batch;

[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class GlobPatternTests
{
    private string _root = "";

    [OneTimeSetUp]
    public void MakeTree()
    {
        _root = Path.Combine(Repo.WorkDirectory, "glob-tree");
        if (Directory.Exists(_root))
            Directory.Delete(_root, recursive: true);
        foreach (string file in new[] { "a.dmp", "b.dmp", "c.core", ".hidden.dmp", "app-1.dmp", "app-x.dmp", "sub/d.dmp", "sub/deeper/core.123", "sub/deeper/e.dmp" })
        {
            string path = Path.Combine(_root, file);
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            File.WriteAllText(path, "x");
        }
    }

    private string[] Expand(string pattern) => GlobPattern.Expand(Path.Combine(_root, pattern), 1000).Select(p => Path.GetRelativePath(_root, p)).ToArray();

    [Test]
    public void Star_matches_within_one_folder_and_not_hidden_files() =>
        Assert.That(Expand("*.dmp"), Is.EqualTo(new[] { "a.dmp", "app-1.dmp", "app-x.dmp", "b.dmp" }));

    [Test]
    public void Double_star_crosses_folders_including_none() =>
        Assert.That(Expand("**/*.dmp"), Is.EquivalentTo(new[] { "a.dmp", "app-1.dmp", "app-x.dmp", "b.dmp", "sub/d.dmp", "sub/deeper/e.dmp" }));

    [Test]
    public void Classes_and_question_marks() =>
        Assert.That(Expand("app-[0-9].dmp").Concat(Expand("?.core")).Concat(Expand("sub/*/core.*")), Is.EqualTo(new[] { "app-1.dmp", "c.core", "sub/deeper/core.123" }));

    [Test]
    public void A_pattern_matching_nothing_is_a_failed_input_of_the_batch()
    {
        Diagext.Result result = Diagext.Run("analyze", Path.Combine(_root, "*.nothing"), "--quiet");
        Assert.That(result.ExitCode, Is.EqualTo(2));
        Assert.That(result.Stdout, Does.Contain("no file matches this pattern"));
    }
}
