namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// A sample published for Windows (win-x64, self-contained: Wine has no .NET) and run under Wine, so the
/// tests get real Windows .NET processes and dumps. .NET runs under Wine 8 as long as mscoree is not
/// disabled (see <see cref="WinePrefix.DotnetAndDebuggerEnvironment"/>).
/// </summary>
public static class WindowsSample
{
    private static readonly Dictionary<string, string> Published = new();
    private static readonly object Gate = new();

    public static string Publish(string sample)
    {
        lock (Gate)
        {
            if (Published.TryGetValue(sample, out string? exe))
                return exe;
            string output = Path.Combine(Repo.WorkDirectory, "win-samples", sample);
            ProcessRunner.Result result = ProcessRunner.Run("dotnet",
                ["publish", Repo.Sample(sample), "-c", "Release", "-r", "win-x64", "--self-contained", "-o", output, "--nologo", "-v", "q"], TimeSpan.FromMinutes(5));
            if (result.ExitCode != 0)
                throw new InvalidOperationException($"publishing sample {sample} for win-x64 failed:\n{result.Stdout}\n{result.Stderr}");
            exe = Path.Combine(output, sample + ".exe");
            Published[sample] = exe;
            return exe;
        }
    }

    /// <summary>
    /// Starts the published sample under Wine and waits for "READY &lt;pid&gt;"; the pid is the Windows one.
    /// .NET 10 under Wine 8 sometimes dies in a GC ("Fatal error. Internal CLR error. (0x80131506)" in the
    /// finalizer thread), seconds into a run that allocates steadily: up to three starts, each logged.
    /// </summary>
    /// <param name="arguments">The sample's own command line (none by default).</param>
    public static (SampleProcess Process, int WindowsPid) Start(string sample, TimeSpan timeout, IEnumerable<string>? arguments = null)
    {
        string[] commandLine = [Publish(sample), .. arguments ?? []];
        WinePrefix.EnsureCreated();
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                SampleProcess process = SampleProcess.StartAndWaitReady("wine", commandLine, timeout, WinePrefix.DotnetAndDebuggerEnvironment);
                string ready = process.Output.Split('\n').First(l => l.StartsWith("READY", StringComparison.Ordinal));
                return (process, int.Parse(ready.Split(' ')[1].Trim()));
            }
            catch (TimeoutException e) when (attempt < 3)
            {
                TestContext.Progress.WriteLine($"{sample} under Wine, start {attempt} failed, trying again: {e.Message}");
            }
        }
    }
}
