using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Live;

/// <summary>
/// Picking a live process as dotnet-dump users do: 'diagext ps' lists it, '-n NAME' and '-p N' / '--process-id N'
/// select it, 'attach --pid N' works like 'attach N'; a name that matches none or several is one line naming
/// what to do. The process is the DictCycle sample started under a name of its own (a copy of its apphost).
/// </summary>
[TestFixture]
[Platform("Linux")]
[NonParallelizable]
public class ProcessSelectionTests
{
    private const string Name = "psname-target";
    private string _executable = null!;
    private SampleProcess _sample = null!;

    [OneTimeSetUp]
    public void Start()
    {
        string built = SampleBuilder.Build("DictCycle");
        _executable = Path.Combine(Path.GetDirectoryName(built)!, Name);
        File.Copy(built, _executable, overwrite: true);
        _sample = SampleProcess.StartAndWaitReady(_executable, [], TimeSpan.FromMinutes(3));
    }

    [OneTimeTearDown]
    public void Stop() => _sample.Dispose();

    private static ProcessRunner.Result Run(params string[] args) => ProcessRunner.Run(Diagext.Executable, args, TimeSpan.FromMinutes(2));

    [Test]
    public void Ps_lists_the_process_with_its_name_and_command_line()
    {
        ProcessRunner.Result ps = Run("ps");

        Assert.That(ps.ExitCode, Is.Zero, ps.Stderr);
        string line = ps.Stdout.Split('\n').Single(l => l.TrimStart().StartsWith($"{_sample.Pid} ", StringComparison.Ordinal));
        Assert.That(line, Does.Contain($" {Name} "));
        Assert.That(line, Does.EndWith(_executable));
        Assert.That(ps.Stdout, Does.Not.Contain($" diagext  {Diagext.Executable} ps"), "diagext does not list itself");
    }

    [TestCase("-n", Name)]
    [TestCase("--name", Name)]
    [TestCase("-p", null)]
    [TestCase("--process-id", null)]
    public void Analyze_selects_the_process_by_name_or_id(string option, string? value)
    {
        ProcessRunner.Result result = Run("dictcycle", option, value ?? _sample.Pid.ToString(), "--json");

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        Assert.That(result.Stdout, Does.Contain("\"detector\": \"dictcycle\""));
        Assert.That(result.Stdout, Does.Contain($"process {_sample.Pid}"));
    }

    [Test]
    public void Attach_takes_the_pid_as_an_option_too()
    {
        ProcessRunner.Result result = Run("attach", "--pid", _sample.Pid.ToString(), "--json");

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        Assert.That(result.Stdout, Does.Contain("\"detector\": \"dictcycle\""));
    }

    [Test]
    public void A_name_nobody_has_is_one_line_pointing_at_ps()
    {
        ProcessRunner.Result result = Run("analyze", "-n", "no-such-process-name");

        Assert.That(result.ExitCode, Is.EqualTo(2));
        Assert.That(result.Stderr.Trim(), Does.Match(@"^diagext: no \.NET process named 'no-such-process-name' that this user can attach to \(\d+ others: 'diagext ps' lists them\)$"));
    }

    [Test]
    public void A_name_two_processes_have_asks_for_a_pid()
    {
        using SampleProcess second = SampleProcess.StartAndWaitReady(_executable, [], TimeSpan.FromMinutes(3));
        ProcessRunner.Result result = Run("analyze", "-n", Name);

        Assert.That(result.ExitCode, Is.EqualTo(2));
        int[] pids = [_sample.Pid, second.Pid];
        Assert.That(result.Stderr.Trim(), Is.EqualTo($"diagext: 2 .NET processes are named '{Name}' (pids {string.Join(", ", pids.Order())}); pick one with --pid"));
    }

    [Test]
    public void Pid_and_name_together_are_a_usage_error()
    {
        ProcessRunner.Result result = Run("analyze", "-p", _sample.Pid.ToString(), "-n", Name);

        Assert.That(result.ExitCode, Is.EqualTo(2));
        Assert.That(result.Stderr, Does.Contain("give --pid or --name, not both"));
    }
}
