using System.Diagnostics;
using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Live;

/// <summary>
/// 'diagext attach PID' on running samples: it finds the corrupt Dictionary in the live process, reads
/// CPU time the way only a live process has it, and leaves the process running, traced by no one.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class AttachTests
{
    private SampleProcess _corrupt = null!;

    [OneTimeSetUp]
    public void StartSample() =>
        _corrupt = SampleProcess.StartAndWaitReady(SampleBuilder.Build("DictCycle"), [], TimeSpan.FromMinutes(3), detached: true);

    [OneTimeTearDown]
    public void StopSample() => _corrupt.Dispose();

    private static void AssertRunsFreely(int pid)
    {
        var (running, why) = ProcState.RunsFreely(pid, TimeSpan.FromMilliseconds(500));
        Assert.That(running, Is.True, why);
    }

    [Test]
    public void Attach_finds_the_corrupt_dictionary_in_the_live_process_and_it_keeps_running()
    {
        // The hammering threads spend most of their time throwing and catching: an attach can find none of them inside
        // the dictionary at that instant (seen once in three runs). A few attaches, until one names a thread.
        JsonElement finding = default;
        for (int attempt = 1; attempt <= 5; attempt++)
        {
            Diagext.Result result = Diagext.Run("attach", _corrupt.Pid.ToString(), "--json");

            Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr + result.Stdout);
            Assert.That(result.Json.GetProperty("target").GetProperty("kind").GetString(), Is.EqualTo("LiveProcess"));
            AssertPause(result.Json, "ptrace");
            // A live read stopped longer than a snapshot likely would have (its estimate in the report) suggests one.
            JsonElement pause = result.Json.GetProperty("pause");
            bool longer = pause.GetProperty("stoppedMs").GetDouble() > pause.GetProperty("snapshotEstimateMs").GetDouble();
            Assert.That(result.Stderr.Contains("try --snapshot", StringComparison.Ordinal), Is.EqualTo(longer), pause + "\n" + result.Stderr);
            // Earlier, no longer referenced dictionaries of the sample can be corrupt too: they have no holder.
            finding = result.Findings.Single(f => f.TryGetProperty("holder", out JsonElement h) && h.GetString()!.EndsWith("DictionaryTarget.Dict"));
            Assert.That(finding.GetProperty("defects").EnumerateArray().Select(d => d.GetProperty("kind").GetString()), Has.Some.Matches<string>(k => k is "self-cycle" or "cycle"));
            if (finding.GetProperty("threads").GetArrayLength() > 0)
                break;
        }
        // Only a live process has CPU times (createdump cores do not): the hammering threads are burning it.
        Assert.That(finding.GetProperty("threads").EnumerateArray().Any(t => t.TryGetProperty("userCpuSeconds", out _)), Is.True, finding.ToString());
        AssertRunsFreely(_corrupt.Pid);
    }

    [Test]
    public void Analyze_with_pid_is_the_same_command()
    {
        Diagext.Result result = Diagext.Run("analyze", "--pid", _corrupt.Pid.ToString());
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        Assert.That(result.Stdout, Does.Contain($"process {_corrupt.Pid}: LINUX x64 live process"));
        Assert.That(result.Stdout, Does.Contain("held by: static DictionaryTarget.Dict"));
        Assert.That(result.Stdout, Does.Match(@"in \d+\.\d\ds; the process was stopped \d+\.\d\ds while it was read"));
        AssertRunsFreely(_corrupt.Pid);
    }

    /// <summary>The report says how long the process was kept from running: more than nothing, less than diagext's own time.</summary>
    private static void AssertPause(JsonElement report, string by)
    {
        JsonElement pause = report.GetProperty("pause");
        Assert.That(pause.GetProperty("by").GetString(), Is.EqualTo(by), pause.ToString());
        double stopped = pause.GetProperty("stoppedMs").GetDouble();
        double diagext = report.GetProperty("startup").GetProperty("openMs").GetDouble() + report.GetProperty("elapsedMs").GetDouble();
        Assert.That(stopped, Is.GreaterThan(0).And.LessThanOrEqualTo(diagext + 50), pause.ToString());
    }

    [Test]
    public void Snapshot_analyses_a_createdump_of_the_process_and_leaves_no_file_behind()
    {
        Diagext.Result result = Diagext.Run("attach", _corrupt.Pid.ToString(), "--snapshot", "--json");

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr + result.Stdout);
        // createdump now and then dies gathering a busy process's state and is run again, which the name then says
        // ("process N (createdump snapshot; createdump died (exit code 139); attempt 2 wrote the dump)"): by design.
        Assert.That(result.Json.GetProperty("target").GetProperty("name").GetString(), Does.Match($@"^process {_corrupt.Pid} \(createdump snapshot(\)|; createdump died .*attempt \d wrote the dump\))$"));
        AssertPause(result.Json, "createdump");
        Assert.That(result.Findings.Select(f => f.TryGetProperty("holder", out JsonElement h) ? h.GetString() : null), Has.Some.EndsWith("DictionaryTarget.Dict"));
        string area = Path.Combine(Path.GetTempPath(), $"diagext-{Environment.ProcessId}");
        Assert.That(Directory.Exists(area) ? Directory.GetFiles(area) : [], Is.Empty, "the snapshot's file is unlinked as soon as it is open");
        AssertRunsFreely(_corrupt.Pid);
    }

    [Test]
    public void A_healthy_process_gives_exit_code_0_and_keeps_printing()
    {
        using SampleProcess healthy = SampleProcess.StartAndWaitReady(SampleBuilder.Build("Healthy"), [], TimeSpan.FromMinutes(3), detached: true);
        Diagext.Result result = Diagext.Run("attach", healthy.Pid.ToString());
        Assert.That(result.ExitCode, Is.EqualTo(0), result.Stderr + result.Stdout);
        Assert.That(result.Stdout, Does.Contain("no hazard found"));
        int ticks = healthy.Output.Split('\n').Count(l => l.StartsWith("tick", StringComparison.Ordinal));
        Thread.Sleep(500);
        Assert.That(healthy.Output.Split('\n').Count(l => l.StartsWith("tick", StringComparison.Ordinal)), Is.GreaterThan(ticks), "it still prints");
    }

    [Test]
    public void No_such_process()
    {
        Diagext.Result result = Diagext.Run("attach", "999999");
        Assert.That(result.ExitCode, Is.EqualTo(2));
        Assert.That(result.Stderr.Trim(), Is.EqualTo("diagext: process 999999: no such process"));
    }

    [Test]
    public void A_native_process_is_named_as_not_dotnet_and_keeps_running()
    {
        // Started through a shell so it is not this test process's child (see SampleProcess's "detached").
        ProcessRunner.Result started = ProcessRunner.Run("/bin/sh", ["-c", "sleep 60 > /dev/null 2>&1 & echo $!"], TimeSpan.FromSeconds(10));
        int sleeper = int.Parse(started.Stdout.Trim());
        try
        {
            Diagext.Result result = Diagext.Run("attach", sleeper.ToString());
            Assert.That(result.ExitCode, Is.EqualTo(2), result.Stdout);
            Assert.That(result.Stderr, Does.Contain($"process {sleeper}: not a .NET process"));
            Assert.That(result.Stderr, Does.Contain("dictcycle"));
            Assert.That(ProcState.States(sleeper).Values, Has.None.AnyOf('T', 't'));
            Assert.That(ProcState.AnyThreadTraced(sleeper), Is.False);

            Diagext.Result snapshot = Diagext.Run("attach", sleeper.ToString(), "--snapshot");
            Assert.That(snapshot.Stderr, Does.Contain("not a .NET process (no libcoreclr.so loaded)"));
        }
        finally
        {
            using Process process = Process.GetProcessById(sleeper);
            process.Kill();
        }
    }

    [Test]
    [System.Runtime.Versioning.SupportedOSPlatform("linux")]
    public void Not_permitted_says_what_to_do()
    {
        if (!OperatingSystem.IsLinux() || Environment.UserName != "root" || !File.Exists("/usr/bin/setpriv"))
            Assert.Ignore("needs root (to run diagext as another user) and setpriv");
        // diagext as user 'nobody' may not trace a root process: the kernel refuses PTRACE_SEIZE. 'nobody' runs a
        // copy in a folder it may enter: the checkout may sit in a private (0700) folder, as a mktemp clone does.
        string copy = Path.Combine(Path.GetTempPath(), $"diagext-for-nobody-{Environment.ProcessId}");
        Directory.CreateDirectory(copy, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute |
            UnixFileMode.GroupRead | UnixFileMode.GroupExecute | UnixFileMode.OtherRead | UnixFileMode.OtherExecute);
        ProcessRunner.Result result;
        try
        {
            foreach (string file in Directory.GetFiles(AppContext.BaseDirectory))
                File.Copy(file, Path.Combine(copy, Path.GetFileName(file)), overwrite: true);
            result = ProcessRunner.Run("/usr/bin/setpriv",
                ["--reuid=65534", "--regid=65534", "--clear-groups", Path.Combine(copy, Path.GetFileName(Diagext.Executable)), "attach", _corrupt.Pid.ToString()],
                TimeSpan.FromMinutes(1), environment: new Dictionary<string, string> { ["HOME"] = "/tmp", ["DOTNET_CLI_HOME"] = "/tmp" });
        }
        finally
        {
            Directory.Delete(copy, recursive: true);
        }
        Assert.That(result.ExitCode, Is.EqualTo(2), result.Stdout + result.Stderr);
        Assert.That(result.Stderr.Trim(), Does.StartWith($"diagext: process {_corrupt.Pid}: not permitted"));
        // The advice fits this case: both uids named (not "run as root" to a root that already is).
        Assert.That(result.Stderr, Does.Contain("it runs as uid 0 and diagext as uid 65534: run diagext as that user or as root"));
        AssertRunsFreely(_corrupt.Pid);
    }
}
