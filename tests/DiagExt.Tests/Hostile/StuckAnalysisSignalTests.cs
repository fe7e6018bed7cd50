using System.Diagnostics;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hostile;

/// <summary>
/// Ctrl+C and SIGTERM cancel cooperatively, but a call that never looks at the token (a DAC call: one fuzzed core kept
/// ClrMD's field enumeration busy for over 15 minutes, and 'timeout' could not stop diagext) must not make diagext
/// unkillable: 10 s after the signal it ends with one line and the signal's exit code (130 for SIGINT, 143 for SIGTERM). The stuck call here is the open of a FIFO
/// no one writes to, which blocks in the kernel.
/// </summary>
[TestFixture]
[Platform("Linux")]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class StuckAnalysisSignalTests
{
    [TestCase("TERM", 143)]
    [TestCase("INT", 130)]
    public void A_signal_ends_an_analysis_that_cannot_be_cancelled(string signal, int exitCode)
    {
        if (signal == "INT")
            InterruptSignal.AssumeDeliverable();
        string fifo = Path.Combine(Repo.WorkDirectory, "hostile", $"never-written-{signal}.core");
        Directory.CreateDirectory(Path.GetDirectoryName(fifo)!);
        File.Delete(fifo);
        Assert.That(ProcessRunner.Run("mkfifo", [fifo], TimeSpan.FromSeconds(10)).ExitCode, Is.Zero);

        var info = new ProcessStartInfo(Diagext.Executable) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        info.ArgumentList.Add("analyze");
        info.ArgumentList.Add(fifo);
        using Process diagext = Process.Start(info)!;
        Task<string> stderr = diagext.StandardError.ReadToEndAsync();
        Assert.That(diagext.WaitForExit(TimeSpan.FromSeconds(3)), Is.False, "the open of the FIFO should block");

        var watch = Stopwatch.StartNew();
        ProcessRunner.Run("kill", [$"-{signal}", diagext.Id.ToString()], TimeSpan.FromSeconds(10));
        bool exited = diagext.WaitForExit(TimeSpan.FromSeconds(40));
        if (!exited)
            diagext.Kill();
        Assert.That(exited, Is.True, $"diagext still running 40 s after SIG{signal}");
        TestContext.Out.WriteLine($"exit {diagext.ExitCode} {watch.Elapsed.TotalSeconds:0.0}s after SIG{signal}: {stderr.Result.Trim()}");
        CliContract.AssertAnswered(diagext.ExitCode, diagext.StandardOutput.ReadToEnd(), stderr.Result, $"SIG{signal} while stuck");
        Assert.That(diagext.ExitCode, Is.EqualTo(exitCode));
    }
}
