using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.LoaderLock;

/// <summary>
/// Real dumps written by Windows machines (../shared/dumps/windows-native, SOURCES.md): each gives the plain answer
/// SOURCES.md lists, through both `loaderlock` and `analyze`, and never a crash.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class SharedWindowsDumpTests
{
    [TestCase("win11-x64-crashpad-tiny-exe.dmp", "is free (LockCount -1 (free), RecursionCount 0, OwningThread 0x0)")]
    [TestCase("win10-x64-tiny-exe-fastfail.dmp", "loader lock state not captured: PEB.LoaderLock points to 0x7ffb0b2965c8, whose memory is not in this dump")]
    [TestCase("win10-x64-invalid-parameter.dmp", "PEB not captured")]
    [TestCase("win-x86-crashpad-tiny-exe.dmp", "PEB not captured: this dump holds no thread's TEB")]
    [TestCase("win7-x86-stack-exhaustion.dmp", "PEB not captured: this dump holds no thread's TEB")]
    [TestCase("winxp-x86-breakpad-test-app.dmp", "PEB not captured: this dump holds no thread's TEB")]
    public void Loaderlock_says_what_the_dump_holds_without_a_finding(string file, string expected)
    {
        string path = Repo.SharedDump(file);
        foreach (string command in new[] { "loaderlock", "analyze" })
        {
            Diagext.Result text = Diagext.Run(command, path);
            TestContext.Out.WriteLine(text.Stdout + text.Stderr);
            Assert.That(text.ExitCode, Is.EqualTo(0), $"{command}: {text.Stdout}{text.Stderr}");
            Assert.That(text.Stderr, Is.Empty);
            Assert.That(text.Stdout, Does.Contain($"loaderlock: note: ").And.Contain(expected));

            Diagext.Result json = Diagext.Run(command, path, "--json");
            Assert.That(json.Findings, Is.Empty);
            JsonElement detector = json.Json.GetProperty("detectors").EnumerateArray().Single(d => d.GetProperty("name").GetString() == "loaderlock");
            Assert.That(detector.GetProperty("status").GetString(), Is.EqualTo("ran"));
            Assert.That(detector.GetProperty("reason").GetString(), Does.Contain(expected));
        }
    }

    [Test]
    public void Analyze_on_a_windows_dump_without_dotnet_reports_dictcycle_skipped_and_loaderlock_ran()
    {
        Diagext.Result result = Diagext.Run("analyze", Repo.SharedDump("win11-x64-crashpad-tiny-exe.dmp"));
        Assert.That(result.ExitCode, Is.EqualTo(0));
        Assert.That(result.Stdout, Does.Contain("dictcycle: skipped: no .NET runtime found in the target"));
        Assert.That(result.Stdout, Does.Contain("no hazard found (loaderlock: 0)"));
    }
}
