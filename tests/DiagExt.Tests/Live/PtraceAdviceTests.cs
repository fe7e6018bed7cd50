using System.Diagnostics;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Live;

/// <summary>
/// When Linux refuses the attach, the one line says why on this machine and what would help, instead of
/// telling root to run as root: here a process someone already traces (strace). Another user's process:
/// AttachTests.Not_permitted_says_what_to_do.
/// </summary>
[TestFixture]
[Platform("Linux")]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class PtraceAdviceTests
{
    private static void Require(string tool)
    {
        if (ProcessRunner.Run("sh", ["-c", $"command -v {tool}"], TimeSpan.FromSeconds(10)).ExitCode != 0)
            Assert.Ignore($"needs {tool}");
    }

    [Test]
    public void A_process_someone_already_traces_names_the_tracer()
    {
        Require("strace");
        using Process strace = Process.Start(new ProcessStartInfo("strace", ["-o", "/dev/null", "sleep", "120"]) { RedirectStandardError = true })!;
        try
        {
            int traced = WaitForChild(strace.Id);
            ProcessRunner.Result result = ProcessRunner.Run(Diagext.Executable, ["analyze", "--pid", traced.ToString()], TimeSpan.FromMinutes(1));

            Assert.That(result.ExitCode, Is.EqualTo(2), result.Stderr);
            Assert.That(result.Stderr.Trim(), Is.EqualTo($"diagext: process {traced}: not permitted to attach (ptrace: operation not permitted); process {strace.Id} is already tracing it (a debugger?): detach that first"));
        }
        finally
        {
            strace.Kill(entireProcessTree: true);
        }
    }

    /// <summary>The pid of the program strace started (its only child), once strace has it under trace.</summary>
    private static int WaitForChild(int parent)
    {
        var watch = Stopwatch.StartNew();
        while (watch.Elapsed < TimeSpan.FromSeconds(20))
        {
            string children = $"/proc/{parent}/task/{parent}/children";
            if (File.Exists(children) && File.ReadAllText(children).Split(' ', StringSplitOptions.RemoveEmptyEntries) is [string child]
                && File.ReadAllLines($"/proc/{child}/status").Any(l => l == $"TracerPid:\t{parent}"))
                return int.Parse(child);
            Thread.Sleep(50);
        }
        throw new TimeoutException("strace did not start tracing sleep");
    }
}
