using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.CtorOrder;

/// <summary>Static mode on bad input: one line and exit 2 for what cannot be scanned at all; damaged files are named, never fatal.</summary>
[TestFixture]
[Category(TestKind.Dump)]
public class CtorOrderBadInputTests
{
    [Test]
    public void Missing_path_is_one_line_and_exit_2()
    {
        Diagext.Result result = Diagext.Run("ctororder", "--assembly", "/nonexistent/bin/App.dll");

        Assert.That(result.ExitCode, Is.EqualTo(2));
        Assert.That(result.Stderr.Trim().Split('\n'), Has.Length.EqualTo(1));
        Assert.That(result.Stderr, Does.Contain("no such file or folder"));
    }

    [Test]
    public void Glob_matching_nothing_is_exit_2()
    {
        Diagext.Result result = Diagext.Run("ctororder", "--assembly", Path.Combine(Repo.WorkDirectory, "no-such-*.dll"));

        Assert.That(result.ExitCode, Is.EqualTo(2));
        Assert.That(result.Stderr, Does.Contain("matches no .dll"));
    }

    [Test]
    public void Assembly_and_pid_together_is_a_usage_error()
    {
        Diagext.Result result = Diagext.Run("ctororder", "--assembly", "x.dll", "--pid", "1");

        Assert.That(result.ExitCode, Is.EqualTo(2));
        Assert.That(result.Stderr, Does.Contain("takes no --pid"));
    }

    [Test]
    public void Native_and_garbage_files_are_skipped_and_named_not_fatal()
    {
        string dir = GarbageFolder("ctororder-garbage-and-one");
        File.Copy(SampleBuilder.Build("CtorOrder") + ".dll", Path.Combine(dir, "Whole.dll"), overwrite: true);

        Diagext.Result result = Diagext.Run("ctororder", "--assembly", dir);

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        Assert.That(result.Stderr, Is.Empty);
        Assert.That(result.Stdout, Does.Contain("2 native files skipped"));
        Assert.That(result.Stdout, Does.Contain("skipped (not managed): ").And.Contain("native.exe").And.Contain("notes.dll"));
        Assert.That(result.Stdout, Does.Contain("not a readable package"));
    }

    [Test]
    public void No_assembly_among_the_inputs_is_exit_2_naming_them()
    {
        Diagext.Result result = Diagext.Run("ctororder", "--assembly", GarbageFolder("ctororder-garbage"));

        Assert.That(result.ExitCode, Is.EqualTo(2), result.Stdout + result.Stderr);
        Assert.That(result.Stderr.Trim().Split('\n'), Has.Length.EqualTo(1));
        Assert.That(result.Stderr, Does.Contain("no managed assembly among 3 files").And.Contain("native.exe").And.Contain("not a readable package"));
    }

    private static string GarbageFolder(string name)
    {
        string dir = Path.Combine(Repo.WorkDirectory, name);
        Directory.CreateDirectory(dir);
        File.WriteAllText(Path.Combine(dir, "notes.dll"), "not a PE file at all");
        File.Copy("/bin/ls", Path.Combine(dir, "native.exe"), overwrite: true);
        File.WriteAllBytes(Path.Combine(dir, "broken.nupkg"), [0x50, 0x4B, 3, 4, 0, 0]);
        return dir;
    }

    [TestCase(0.5)]
    [TestCase(0.97)]
    public void Truncated_assembly_is_named_and_the_scan_goes_on(double keep)
    {
        string sample = SampleBuilder.Build("CtorOrder") + ".dll";
        string dir = Path.Combine(Repo.WorkDirectory, $"ctororder-truncated-{keep}");
        Directory.CreateDirectory(dir);
        byte[] bytes = File.ReadAllBytes(sample);
        File.WriteAllBytes(Path.Combine(dir, "Truncated.dll"), bytes[..(int)(bytes.Length * keep)]);
        File.Copy(sample, Path.Combine(dir, "Whole.dll"), overwrite: true);

        Diagext.Result result = Diagext.Run("ctororder", "--assembly", dir, "--json");

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        Assert.That(result.Stderr, Is.Empty);
        Assert.That(result.Findings.Count(f => f.GetProperty("callSite").GetProperty("assemblyPath").GetString()!.EndsWith("Whole.dll")), Is.EqualTo(CtorOrderSampleScanTests.Hazardous.Length + CtorOrderSampleScanTests.Unknown.Length));
    }
}
