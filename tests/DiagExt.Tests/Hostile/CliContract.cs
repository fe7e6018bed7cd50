using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hostile;

/// <summary>
/// What diagext must do with any input, however hostile: findings (exit 0 or 1, a JSON report that parses) or one
/// line on stderr with exit code 2; never a stack trace, an "internal error", a crash or a hang.
/// </summary>
internal static class CliContract
{
    public static void AssertAnswered(int exitCode, string stdout, string stderr, string what)
    {
        string context = $"{what}: exit {exitCode}\nstdout: {Cut(stdout)}\nstderr: {Cut(stderr)}";
        Assert.That(exitCode, Is.AnyOf(0, 1, 2, 130, 143), context);
        Assert.That(stderr, Does.Not.Contain("internal error").And.Not.Contain("   at ").And.Not.Contain("Unhandled"), context);
        if (exitCode is 130 or 143)
        {
            Assert.That(stderr.TrimEnd().Split('\n')[^1], Does.StartWith("diagext: "), context);
            return;
        }
        if (exitCode == 2)
        {
            string[] lines = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries);
            Assert.That(lines, Has.Length.EqualTo(1), context);
            Assert.That(lines[0], Does.StartWith("diagext: "), context);
            Assert.That(stdout, Is.Empty, context);
            return;
        }
        JsonElement report = JsonDocument.Parse(stdout).RootElement;
        Assert.That(report.GetProperty("findings").ValueKind, Is.EqualTo(JsonValueKind.Array), context);
    }

    public static Diagext.Result RunInProcess(string what, params string[] args)
    {
        Diagext.Result result = Diagext.Run(args);
        AssertAnswered(result.ExitCode, result.Stdout, result.Stderr, what);
        return result;
    }

    /// <summary>In a process of its own: a native fault in the DAC would end the test host otherwise.</summary>
    public static ProcessRunner.Result RunExecutable(string what, TimeSpan timeout, params string[] args)
    {
        ProcessRunner.Result result = ProcessRunner.Run(Diagext.Executable, args, timeout);
        AssertAnswered(result.ExitCode, result.Stdout, result.Stderr, what);
        return result;
    }

    private static string Cut(string s) => s.Length > 2000 ? s[..2000] + "..." : s;
}
