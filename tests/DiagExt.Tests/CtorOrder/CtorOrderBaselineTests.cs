using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.CtorOrder;

/// <summary>
/// "--write-baseline FILE" records every site of the built CtorOrder sample; "--baseline FILE" then leaves them out
/// (exit 0), and a site not in the file is still reported. Bad baseline files are one line and exit 2.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class CtorOrderBaselineTests
{
    private static string SampleDll => SampleBuilder.Build("CtorOrder") + ".dll";

    private static string TempFile(string name) => Path.Combine(Repo.WorkDirectory, name);

    [Test]
    public void A_written_baseline_quiets_every_site_it_lists_and_only_those()
    {
        string file = TempFile("ctororder-baseline.txt");

        Diagext.Result written = Diagext.Run("ctororder", "--assembly", SampleDll, "--write-baseline", file);
        Assert.That(written.ExitCode, Is.EqualTo(0), written.Stderr);
        string[] lines = File.ReadAllLines(file).Where(l => !l.StartsWith('#')).ToArray();
        int sites = CtorOrderSampleScanTests.Hazardous.Length + CtorOrderSampleScanTests.Unknown.Length;
        Assert.That(lines, Has.Length.EqualTo(sites));
        Assert.That(written.Stdout, Does.Contain($"{sites} site(s) written to the baseline"));
        // No IL offset or path in a key: a rebuild keeps matching.
        Assert.That(lines, Has.Some.EqualTo("CtorOrder\tCtorOrderSample.DefaultCreationPolicy.SelectConstructor(Type)\tGetConstructors()[0]"));
        Assert.That(string.Join("\n", lines), Does.Not.Contain("IL_").And.Not.Contain(".dll"));

        Diagext.Result quiet = Diagext.Run("ctororder", "--assembly", SampleDll, "--baseline", file, "--json");
        Assert.That(quiet.ExitCode, Is.EqualTo(0), quiet.Stdout + quiet.Stderr);
        Assert.That(quiet.Findings, Is.Empty);

        // A reviewed list without one site: that site, and only it, is reported again.
        File.WriteAllLines(file, lines.Where(l => !l.Contains("SelectConstructor")));
        Diagext.Result one = Diagext.Run("ctororder", "--assembly", SampleDll, "--baseline", file);
        Assert.That(one.ExitCode, Is.EqualTo(1), one.Stderr);
        Assert.That(one.Stdout, Does.Contain($"{sites - 1} site(s) listed in the baseline"));
        Assert.That(one.Stdout, Does.Contain("1 finding"));
        Assert.That(one.Stdout, Does.Contain("DefaultCreationPolicy.SelectConstructor takes a constructor by position"));
    }

    [Test]
    public void Missing_or_malformed_baseline_is_one_line_and_exit_2()
    {
        InputError("baseline file not found", "--assembly", SampleDll, "--baseline", TempFile("no-such-baseline.txt"));

        string bad = TempFile("ctororder-bad-baseline.txt");
        File.WriteAllText(bad, "# comment\nnot a baseline line\n");
        InputError(":2: not a baseline line", "--assembly", SampleDll, "--baseline", bad);
    }

    [Test]
    public void Baseline_options_need_assembly_mode_and_one_at_a_time()
    {
        InputError("go with --assembly", "--pid", "1", "--baseline", "b.txt");
        InputError("one at a time", "--assembly", SampleDll, "--baseline", "a.txt", "--write-baseline", "b.txt");
    }

    /// <summary>"ctororder ARGS" fails with exit 2 and one line saying <paramref name="message"/>.</summary>
    private static void InputError(string message, params string[] args)
    {
        Diagext.Result result = Diagext.Run(["ctororder", .. args]);
        Assert.That(result.ExitCode, Is.EqualTo(2), result.Stdout + result.Stderr);
        Assert.That(result.Stderr.Trim().Split('\n'), Has.Length.EqualTo(1), result.Stderr);
        Assert.That(result.Stderr, Does.Contain(message));
    }
}
