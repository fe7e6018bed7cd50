using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.LoaderLock;

/// <summary>
/// The seed's hang reproduced for real: mingw-built programs run under Wine and dumped by a separate Wine process.
/// An exiting worker owns the loader lock inside threadcleanup.dll's DLL_THREAD_DETACH while the main thread,
/// holding the lock that detach code needs, calls LoadLibraryW.
/// </summary>
[TestFixture]
public class LoaderLockWineTests
{
    private static (Diagext.Result Result, JsonElement Finding) Analyze(WineDump dump)
    {
        Diagext.Result result = Diagext.Run("loaderlock", dump.Path, "--json");
        TestContext.Out.WriteLine($"{dump.ReadyLine}\n{Diagext.Run("loaderlock", dump.Path).Stdout}");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        JsonElement[] findings = result.Findings.ToArray();
        Assert.That(findings, Has.Length.EqualTo(1));
        return (result, findings[0]);
    }

    private static void AssertOwnerAndVictim(WineDump dump, JsonElement finding, string state, string stateFunction)
    {
        JsonElement owner = finding.GetProperty("owner");
        Assert.That(owner.GetProperty("osThreadId").GetUInt32(), Is.EqualTo(dump.OtherThread), "the exiting worker owns the lock");
        Assert.That(owner.GetProperty("state").GetString(), Is.EqualTo(state));
        Assert.That(owner.GetProperty("activity").GetString(), Is.EqualTo("exiting"));
        Assert.That(owner.GetProperty("stateFunction").GetString(), Is.EqualTo(stateFunction));
        Assert.That(owner.GetProperty("module").GetString(), Is.EqualTo("threadcleanup.dll"));
        Assert.That(owner.GetProperty("stack").EnumerateArray().Select(f => f.GetString()), Has.Some.StartsWith("ntdll!LdrShutdownThread"));

        JsonElement[] victims = finding.GetProperty("victims").EnumerateArray().ToArray();
        Assert.That(victims, Has.Length.EqualTo(1));
        Assert.That(victims[0].GetProperty("osThreadId").GetUInt32(), Is.EqualTo(dump.MainThread));
        Assert.That(victims[0].GetProperty("api").GetString(), Is.EqualTo("LoadLibraryW"));
        Assert.That(victims[0].GetProperty("style").GetString(), Is.EqualTo("critical-section"));
        Assert.That(victims[0].GetProperty("callerModule").GetString(), Is.EqualTo("loaderlock.exe"));

        Assert.That(finding.GetProperty("owningThread").GetUInt64(), Is.EqualTo(dump.OtherThread));
        Assert.That(finding.GetProperty("recursionCount").GetInt32(), Is.EqualTo(1));
        Assert.That(finding.GetProperty("lockCount").GetInt32(), Is.EqualTo(1), "Wine counts waiters: one thread waits");
        Assert.That(finding.GetProperty("lockAddress").GetString(), Does.StartWith("0x"));
        Assert.That(finding.GetProperty("modules").EnumerateArray().Select(m => m.GetString()), Is.EqualTo(new[] { "threadcleanup.dll", "loaderlock.exe" }));
        Assert.That(finding.GetProperty("threads").EnumerateArray().Select(t => t.GetProperty("osThreadId").GetUInt32()), Is.EqualTo(new[] { dump.OtherThread, dump.MainThread }));
    }

    [Test]
    public void Spinning_owner_x64_is_named_with_SwitchToThread_the_dll_and_the_thread_in_LoadLibrary()
    {
        WineDump dump = WineDumpMaker.Dump("x86_64", "spin");
        var (_, finding) = Analyze(dump);
        AssertOwnerAndVictim(dump, finding, "spinning", "SwitchToThread");
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("blocked-owner"));
        Assert.That(finding.GetProperty("deadlock").GetString(), Is.EqualTo("none"), "a spin lock is not visible in the dump: no deadlock claim");
        Assert.That(finding.GetProperty("processArchitecture").GetString(), Is.EqualTo("x64"));
        Assert.That(finding.GetProperty("summary").GetString(), Is.EqualTo(
            $"Thread 2 (0x{dump.OtherThread:x}) owns the loader lock, is exiting and spins in SwitchToThread inside threadcleanup.dll (CPU time not in this dump). " +
            $"Thread 0 (0x{dump.MainThread:x}) waits for it in LoadLibraryW."));
    }

    [Test]
    public void Waiting_owner_x64_waits_in_WaitForSingleObject()
    {
        WineDump dump = WineDumpMaker.Dump("x86_64", "wait");
        var (_, finding) = Analyze(dump);
        AssertOwnerAndVictim(dump, finding, "waiting", "WaitForSingleObject");
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("blocked-owner"));
        Assert.That(finding.GetProperty("summary").GetString(), Does.Contain("is exiting and waits in WaitForSingleObject inside threadcleanup.dll."));
        Assert.That(finding.GetProperty("summary").GetString(), Does.Not.Contain("CPU"), "CPU time matters for a spinning owner, not a blocked one");
    }

    [Test]
    public void Owner_waiting_for_a_critical_section_held_by_the_thread_in_LoadLibrary_is_a_deadlock()
    {
        WineDump dump = WineDumpMaker.Dump("x86_64", "critsec");
        var (_, finding) = Analyze(dump);
        AssertOwnerAndVictim(dump, finding, "waiting", "RtlEnterCriticalSection"); // kernel32!EnterCriticalSection forwards to ntdll
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("deadlock"));
        Assert.That(finding.GetProperty("deadlock").GetString(), Is.EqualTo("certain"));
        Assert.That(finding.GetProperty("owner").GetProperty("waitsForThread").GetUInt32(), Is.EqualTo(dump.MainThread));
        Assert.That(finding.GetProperty("summary").GetString(), Does.EndWith("Deadlock: the owner waits for a lock held by a thread that waits for the loader lock."));
    }

    [Test]
    public void Healthy_process_with_a_thread_spinning_outside_the_lock_has_no_finding()
    {
        WineDump dump = WineDumpMaker.Dump("x86_64", "healthy");
        Diagext.Result result = Diagext.Run("loaderlock", dump.Path);
        TestContext.Out.WriteLine(result.Stdout);
        Assert.That(result.ExitCode, Is.EqualTo(0), result.Stdout + result.Stderr);
        Assert.That(result.Stdout, Does.Contain("loaderlock: note: loader lock at 0x").And.Contain("is free (LockCount -1 (free), RecursionCount 0, OwningThread 0x0)"));
        Assert.That(Diagext.Run("loaderlock", dump.Path, "--json").Findings, Is.Empty);
    }

    [Test]
    public void Spinning_owner_x86_dumped_by_a_32_bit_writer()
    {
        WineDump dump = WineDumpMaker.Dump("i686", "spin");
        var (_, finding) = Analyze(dump);
        AssertOwnerAndVictim(dump, finding, "spinning", "SwitchToThread");
        Assert.That(finding.GetProperty("processArchitecture").GetString(), Is.EqualTo("x86"));
    }

    [Test]
    public void Spinning_owner_x86_dumped_by_a_64_bit_writer_is_read_through_the_32_bit_TEB()
    {
        WineDump dump = WineDumpMaker.Dump("i686", "spin", writerArch: "x86_64");
        var (_, finding) = Analyze(dump);
        AssertOwnerAndVictim(dump, finding, "spinning", "SwitchToThread");
        Assert.That(finding.GetProperty("processArchitecture").GetString(), Is.EqualTo("x86 (WOW64, dumped by a 64-bit writer)"));
    }

    [Test]
    public void Analyze_runs_loaderlock_on_a_windows_dump_without_dotnet()
    {
        WineDump dump = WineDumpMaker.Dump("x86_64", "spin");
        Diagext.Result result = Diagext.Run("analyze", dump.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        Assert.That(result.Findings.Select(f => f.GetProperty("detector").GetString()), Is.EqualTo(new[] { "loaderlock" }));
        JsonElement[] detectors = result.Json.GetProperty("detectors").EnumerateArray().ToArray();
        Assert.That(detectors.Single(d => d.GetProperty("name").GetString() == "dictcycle").GetProperty("status").GetString(), Is.EqualTo("skipped"));
        Assert.That(detectors.Single(d => d.GetProperty("name").GetString() == "loaderlock").GetProperty("status").GetString(), Is.EqualTo("ran"));
    }
}
