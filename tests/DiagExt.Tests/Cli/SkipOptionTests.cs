using DiagExt.Core.Errors;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Cli;

/// <summary>
/// 'analyze --skip' names are checked before anything is opened or started: an unknown name, or one list that
/// leaves nothing to run, is one line on stderr and exit code 2 (a usage error), for one dump and for a batch alike.
/// </summary>
[TestFixture]
[Category(TestKind.Unit)]
public class SkipOptionTests
{
    [TestCase("no-such.core")]
    [TestCase("a.core", "b.core")]
    public void An_unknown_detector_is_one_line_and_exit_2(params string[] dumps)
    {
        Diagext.Result result = Diagext.Run(["analyze", .. dumps, "--skip", "hnag"]);

        Assert.That(result.ExitCode, Is.EqualTo((int)ExitCode.InputError));
        Assert.That(result.Stdout, Is.Empty);
        Assert.That(result.Stderr.TrimEnd('\n').Split('\n'), Has.Length.EqualTo(1), result.Stderr);
        Assert.That(result.Stderr, Does.Contain("--skip: unknown detector 'hnag'; did you mean 'hang'?"));
    }

    [Test]
    public void Leaving_out_every_detector_is_a_usage_error()
    {
        Diagext.Result result = Diagext.Run("analyze", "no-such.core", "--skip", "hang,dictcycle,ctororder,wcfhang,loaderlock");

        Assert.That(result.ExitCode, Is.EqualTo((int)ExitCode.InputError));
        Assert.That(result.Stderr, Does.Contain("--skip leaves no detector to run"));
    }

    [Test]
    public void An_empty_list_is_a_usage_error()
    {
        Diagext.Result result = Diagext.Run("analyze", "no-such.core", "--skip", ",");

        Assert.That(result.ExitCode, Is.EqualTo((int)ExitCode.InputError));
        Assert.That(result.Stderr, Does.Contain("--skip needs detector names"));
    }
}
