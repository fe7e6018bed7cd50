using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hostile;

/// <summary>
/// Some damaged cores make the DAC fault (SIGSEGV) or ClrMD abort the process: no catch stops that, so diagext
/// analyses a dump in a child process and turns its death into one line. The damage is the fuzzing's that found it
/// (tests/Fuzz/README.md): 64 KB chunks of a real core zeroed; which copies crash depends on the core's layout, so the
/// test tries seeded copies until the analysis, run in-process (DIAGEXT_ISOLATED=1), dies of a signal.
/// </summary>
[TestFixture]
[Platform("Linux")]
[Category(TestKind.Dump)]
public class CrashingDumpTests
{
    private const int Copies = 20;

    [Test]
    public void A_dump_that_crashes_the_analysis_is_one_line_with_exit_code_2()
    {
        string core = DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core");
        string damaged = Path.Combine(Repo.WorkDirectory, "hostile", "zeroed-chunks.core");
        Directory.CreateDirectory(Path.GetDirectoryName(damaged)!);
        for (int seed = 1; seed <= Copies; seed++)
        {
            ZeroChunks(core, damaged, seed);
            ProcessRunner.Result unprotected = ProcessRunner.Run(Diagext.Executable, ["analyze", damaged, "--json", "--timeout", "60s"],
                TimeSpan.FromMinutes(3), environment: new Dictionary<string, string> { ["DIAGEXT_ISOLATED"] = "1" });
            if (unprotected.ExitCode <= 128)
                continue;
            TestContext.Out.WriteLine($"copy {seed}: in-process analysis died with exit code {unprotected.ExitCode}");

            ProcessRunner.Result result = ProcessRunner.Run(Diagext.Executable, ["analyze", damaged, "--json"], TimeSpan.FromMinutes(3));
            CliContract.AssertAnswered(result.ExitCode, result.Stdout, result.Stderr, $"copy {seed}");
            Assert.That(result.ExitCode, Is.EqualTo(2));
            Assert.That(result.Stderr.Trim(), Does.StartWith($"diagext: {damaged}: the analys").And.Contain("crashed"));

            // The same through the in-process entry point (as the tests and the batch's parent use it): the host survives.
            // --json: dictcycle alone need not crash on this copy (seen under load), and then its report must parse.
            Diagext.Result inProcess = Diagext.Run("dictcycle", damaged, "--json");
            CliContract.AssertAnswered(inProcess.ExitCode, inProcess.Stdout, inProcess.Stderr, $"copy {seed}, dictcycle");
            return;
        }
        Assert.Inconclusive($"none of {Copies} damaged copies crashed the analysis in-process; nothing to protect against here");
    }

    /// <summary>A copy of the core with 100 page-aligned 64 KB chunks zeroed, past the ELF headers.</summary>
    private static void ZeroChunks(string source, string target, int seed)
    {
        File.Copy(source, target, overwrite: true);
        var random = new Random(seed);
        using FileStream file = File.Open(target, FileMode.Open, FileAccess.ReadWrite);
        long length = file.Length;
        byte[] zeros = new byte[64 * 1024];
        for (int i = 0; i < 100; i++)
        {
            file.Position = random.NextInt64(zeros.Length, length - zeros.Length) & ~4095L;
            file.Write(zeros);
        }
    }
}
