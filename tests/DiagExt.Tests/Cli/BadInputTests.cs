using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Cli;

/// <summary>Bad input gets one line on stderr and exit code 2: never a stack trace, a hang or a crash.</summary>
[TestFixture]
public class BadInputTests
{
    internal static void AssertOneLineError(Diagext.Result result, string expected)
    {
        Assert.That(result.ExitCode, Is.EqualTo(2), result.Stdout + result.Stderr);
        Assert.That(result.Stdout, Is.Empty);
        string[] lines = result.Stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.That(lines, Has.Length.EqualTo(1), result.Stderr);
        Assert.That(lines[0], Does.StartWith("diagext: "));
        Assert.That(lines[0], Does.Contain(expected));
    }

    [Test]
    public void Missing_file() => AssertOneLineError(Diagext.Run("dictcycle", "/nonexistent/x.dmp"), "no such file");

    [Test]
    public void Text_file()
    {
        string path = Path.Combine(Repo.WorkDirectory, "not-a-dump.txt");
        File.WriteAllText(path, "hello, I am not a dump\n");
        AssertOneLineError(Diagext.Run("dictcycle", path), "not a dump file");
    }

    [Test]
    public void Empty_file()
    {
        string path = Path.Combine(Repo.WorkDirectory, "empty.dmp");
        File.WriteAllBytes(path, []);
        AssertOneLineError(Diagext.Run("analyze", path), "empty");
    }

    [Test]
    public void Directory_instead_of_a_dump() => AssertOneLineError(Diagext.Run("dictcycle", Repo.WorkDirectory), "is a directory");

    [Test]
    public void Elf_file_that_is_not_a_core() => AssertOneLineError(Diagext.Run("dictcycle", "/bin/ls"), "not a core dump");

    [Test]
    public void Compressed_dump()
    {
        string path = Path.Combine(Repo.WorkDirectory, "dump.gz");
        File.WriteAllBytes(path, [0x1F, 0x8B, 8, 0, 0, 0, 0, 0]);
        AssertOneLineError(Diagext.Run("dictcycle", path), "compressed");
    }

    [TestCase(100_000)]
    [TestCase(50_000_000)]
    public void Truncated_linux_core(long keep)
    {
        string dump = DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core");
        string truncated = Path.Combine(Repo.WorkDirectory, $"truncated-{keep}.core");
        using (var source = File.OpenRead(dump))
        using (var target = File.Create(truncated))
        {
            var buffer = new byte[keep];
            source.ReadExactly(buffer);
            target.Write(buffer);
        }
        AssertOneLineError(Diagext.Run("dictcycle", truncated), "truncated");
    }

    [TestCase("win11-x64-crashpad-tiny-exe.dmp")]
    [TestCase("win10-x64-tiny-exe-fastfail.dmp")]
    [TestCase("win10-x64-invalid-parameter.dmp")]
    [TestCase("win-x86-crashpad-tiny-exe.dmp")]
    [TestCase("win7-x86-stack-exhaustion.dmp")]
    [TestCase("winxp-x86-breakpad-test-app.dmp")]
    public void Windows_dump_without_dotnet(string file) =>
        AssertOneLineError(Diagext.Run("dictcycle", Repo.SharedDump(file)), "no .NET runtime");

    [TestCase("frobnicate", "unknown command 'frobnicate'")]
    [TestCase("dictcycle", "needs a dump file or --pid N")]
    [TestCase("dictcycle --bogus x.dmp", "unknown option '--bogus'")]
    [TestCase("dictcycle --format xml x.dmp", "--format must be text, dml or json")]
    [TestCase("dictcycle --pid abc", "--pid expects a number")]
    [TestCase("dictcycle --pid", "--pid needs a value")]
    [TestCase("dictcycle a.dmp b.dmp", "takes one dump")]
    [TestCase("dictcycle --pid 1 a.dmp", "not both")]
    [TestCase("dictcycle --json --format text a.dmp", "conflicts")]
    [TestCase("dictcycle --no-suspend a.dmp", "--no-suspend goes with --pid N alone")]
    [TestCase("dictcycle --pid 1 --no-suspend --snapshot", "--no-suspend goes with --pid N alone")]
    [TestCase("analyze --threads 0 a.dmp", "--threads 0: give at least 1")]
    [TestCase("analyze --threads many a.dmp", "--threads expects a number")]
    public void Bad_options(string commandLine, string expected) =>
        AssertOneLineError(Diagext.Run(commandLine.Split(' ')), expected);

    [Test]
    public void No_such_process() => AssertOneLineError(Diagext.Run("dictcycle", "--pid", "999999"), "no such process");

    [Test]
    public void Missing_dac_is_one_line_naming_the_version_and_the_option()
    {
        string dump = DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core");
        string dac = Path.Combine(Repo.WorkDirectory, "no-such-dac.so");
        AssertOneLineError(Diagext.Run("dictcycle", dump, "--dac", dac), $"--dac {dac}: no such file");
    }

    [Test]
    public void The_real_executable_prints_no_stack_trace_for_a_corrupt_dump()
    {
        // Valid minidump header, stream directory pointing far past the end of the file.
        string path = Path.Combine(Repo.WorkDirectory, "corrupt-header.dmp");
        var bytes = new byte[32];
        BitConverter.GetBytes(0x504D444Du).CopyTo(bytes, 0);
        BitConverter.GetBytes(3u).CopyTo(bytes, 8);
        BitConverter.GetBytes(0x7FFFFFF0u).CopyTo(bytes, 12);
        File.WriteAllBytes(path, bytes);

        ProcessRunner.Result result = ProcessRunner.Run(Diagext.Executable, ["analyze", path], TimeSpan.FromMinutes(1));

        Assert.That(result.ExitCode, Is.EqualTo(2));
        Assert.That(result.Stderr.Trim().Split('\n'), Has.Length.EqualTo(1), result.Stderr);
        Assert.That(result.Stderr, Does.Contain("truncated").Or.Contain("cannot read"));
        Assert.That(result.Stderr, Does.Not.Contain("   at "));
    }
}
