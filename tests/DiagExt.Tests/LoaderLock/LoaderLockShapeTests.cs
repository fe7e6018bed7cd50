using System.Globalization;
using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.LoaderLock;

/// <summary>
/// Loader-lock shapes the detector was not built on (issue 32), as real programs: samples/LoaderLockShapes built with
/// mingw-w64, run under Wine, dumped from another Wine process. The ground truth is the program's design (shapes.c),
/// written down here before diagext ran on any of them:
/// <code>
/// shape        owner (activity, waits in)                        victims (api)                          deadlock  kind
/// threadwait   main thread (loading, WaitForSingleObject on the   the thread that DllMain created        certain   deadlock
///              handle of the thread its DllMain created)          (LdrInitializeThunk: cannot start)
/// sectionload  the worker loading sectionload.dll (loading,       main thread, holding that section      certain   deadlock
///              RtlEnterCriticalSection on the app's section)      (LoadLibraryW)
/// detachwait   main thread (unloading, WaitForSingleObject on     the worker (GetModuleHandleW), the     likely    blocked-owner
///              an event the worker sets after GetModuleHandle)    one thread that could set the event
/// </code>
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class LoaderLockShapeTests
{
    private static JsonElement Finding(ShapeDump dump)
    {
        Diagext.Result result = Diagext.Run("loaderlock", dump.Path, "--json");
        TestContext.Out.WriteLine($"{dump.ReadyLine}\n{Diagext.Run("loaderlock", dump.Path).Stdout}");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        return result.Findings.Single();
    }

    private static void AssertRoles(ShapeDump dump, JsonElement finding, string activity, string stateFunction, string module, string[] victimApis)
    {
        JsonElement owner = finding.GetProperty("owner");
        Assert.That(owner.GetProperty("osThreadId").GetUInt32(), Is.EqualTo(dump.Owner));
        Assert.That(owner.GetProperty("state").GetString(), Is.EqualTo("waiting"));
        Assert.That(owner.GetProperty("activity").GetString(), Is.EqualTo(activity));
        Assert.That(owner.GetProperty("stateFunction").GetString(), Is.EqualTo(stateFunction));
        Assert.That(owner.GetProperty("module").GetString(), Is.EqualTo(module));
        JsonElement[] victims = finding.GetProperty("victims").EnumerateArray().ToArray();
        Assert.That(victims.Select(v => v.GetProperty("osThreadId").GetUInt32()), Is.EqualTo(dump.Victims));
        Assert.That(victims.Select(v => v.GetProperty("api").GetString()), Is.EqualTo(victimApis));
        Assert.That(finding.GetProperty("threads").EnumerateArray().Select(t => t.GetProperty("osThreadId").GetUInt32()),
            Is.EqualTo(new[] { dump.Owner }.Concat(dump.Victims)));
    }

    [Test]
    public void DllMain_waiting_for_the_thread_it_created_is_a_certain_deadlock()
    {
        ShapeDump dump = WineShapeDumps.Hang("threadwait");
        JsonElement finding = Finding(dump);
        AssertRoles(dump, finding, "loading", "WaitForSingleObject", "threadwait.dll", ["LdrInitializeThunk"]);
        Assert.That(finding.GetProperty("victims")[0].GetProperty("activity").GetString(), Is.EqualTo("starting-thread"));
        Assert.That(finding.GetProperty("deadlock").GetString(), Is.EqualTo("certain"));
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("deadlock"));
        JsonElement owner = finding.GetProperty("owner");
        Assert.That(owner.GetProperty("waitsForThread").GetUInt32(), Is.EqualTo(dump.Victims[0]));
        JsonElement handle = owner.GetProperty("waitsOnHandles").EnumerateArray().Single();
        Assert.That(handle.GetProperty("type").GetString(), Is.EqualTo("Thread"));
        Assert.That(handle.GetProperty("osThreadId").GetUInt32(), Is.EqualTo(dump.Victims[0]));
        Assert.That(finding.GetProperty("summary").GetString(), Does.EndWith(
            $"Deadlock: the owner waits for thread 0x{dump.Victims[0]:x} to end (thread handle {handle.GetProperty("handle").GetString()}), which cannot even start."));
        Assert.That(finding.GetProperty("couldSignal").EnumerateArray(), Is.Empty);
    }

    [Test]
    public void An_application_critical_section_against_the_loader_lock_is_a_certain_deadlock()
    {
        ShapeDump dump = WineShapeDumps.Hang("sectionload");
        JsonElement finding = Finding(dump);
        AssertRoles(dump, finding, "loading", "RtlEnterCriticalSection", "sectionload.dll", ["LoadLibraryW"]);
        Assert.That(finding.GetProperty("deadlock").GetString(), Is.EqualTo("certain"));
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("deadlock"));
        JsonElement owner = finding.GetProperty("owner");
        Assert.That(owner.GetProperty("waitsForThread").GetUInt32(), Is.EqualTo(dump.Victims[0]), "the main thread holds the section");
        Assert.That(owner.GetProperty("waitsForCriticalSection").GetString(), Does.StartWith("0x"));
        Assert.That(finding.GetProperty("summary").GetString(), Does.EndWith("Deadlock: the owner waits for a lock held by a thread that waits for the loader lock."));
    }

    [Test]
    public void DLL_PROCESS_DETACH_waiting_for_an_event_is_a_likely_deadlock_naming_who_could_set_it()
    {
        ShapeDump dump = WineShapeDumps.Hang("detachwait");
        JsonElement finding = Finding(dump);
        AssertRoles(dump, finding, "unloading", "WaitForSingleObject", "detachwait.dll", ["GetModuleHandleW"]);
        Assert.That(finding.GetProperty("deadlock").GetString(), Is.EqualTo("likely"), "nothing in a dump says who would set an event");
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("blocked-owner"));
        Assert.That(finding.GetProperty("couldSignal").EnumerateArray().Select(t => t.GetUInt32()), Is.EqualTo(dump.Victims));
        JsonElement handle = finding.GetProperty("owner").GetProperty("waitsOnHandles").EnumerateArray().Single();
        Assert.That(handle.GetProperty("type").GetString(), Is.EqualTo("Event"));
        Assert.That(finding.GetProperty("summary").GetString(), Does.Contain(
            $"Likely deadlock: the owner waits on Event handle {handle.GetProperty("handle").GetString()}; the threads that could set it wait for the loader lock: thread "));
    }

    private static ulong Hex(string text) => ulong.Parse(text[2..], NumberStyles.HexNumber);

    private static string NoteOf(Diagext.Result result) =>
        result.Json.GetProperty("detectors").EnumerateArray().Single(d => d.GetProperty("name").GetString() == "loaderlock").GetProperty("reason").GetString()!;

    [Test]
    public void A_lock_whose_owner_is_shown_waiting_to_enter_it_is_an_inconsistent_dump_not_a_hazard()
    {
        // sectionload with the loader lock's OwningThread set to the main thread, which is shown entering it: what a
        // writer that copies memory while the process runs shows of a busy loader.
        ShapeDump dump = WineShapeDumps.Hang("sectionload");
        JsonElement finding = Finding(dump);
        ulong lockAddress = Hex(finding.GetProperty("lockAddress").GetString()!);
        string copy = PatchedDumps.Patched(dump.Path, "shape-owner-shown-entering.dmp", lockAddress + 0x10, BitConverter.GetBytes((ulong)dump.Victims[0]));

        Diagext.Result result = Diagext.Run("loaderlock", copy, "--json");
        TestContext.Out.WriteLine(Diagext.Run("loaderlock", copy).Stdout);
        Assert.That(result.ExitCode, Is.EqualTo(0), result.Stdout + result.Stderr);
        Assert.That(result.Findings, Is.Empty);
        Assert.That(NoteOf(result), Does.Contain($"its owner, Thread 0 (0x{dump.Victims[0]:x}), is shown waiting to enter it")
            .And.Contain("the dump was written while the process ran: this may be transient; take a dump with a writer that suspends the process")
            .And.Contain("Owner's stack: ntdll!NtWaitForAlertByThreadId"));
    }

    [Test]
    public void A_lock_count_naming_more_waiters_than_the_dump_has_threads_is_an_inconsistent_dump()
    {
        ShapeDump dump = WineShapeDumps.Hang("threadwait");
        ulong lockAddress = Hex(Finding(dump).GetProperty("lockAddress").GetString()!);
        string copy = PatchedDumps.Patched(dump.Path, "shape-too-many-waiters.dmp", lockAddress + 0x8, BitConverter.GetBytes(6)); // x64 LockCount

        Diagext.Result result = Diagext.Run("loaderlock", copy, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(0), result.Stdout + result.Stderr);
        Assert.That(NoteOf(result), Does.Contain("its LockCount 6 counts 6 waiters; the dump has 2 threads besides the owner")
            .And.Contain("this may be transient"));
    }

    [TestCase("ntdll.dll", @"its module list \(\d+ modules\) lacks ntdll\.dll, which every Windows process loads first")]
    [TestCase(null, "its module list is empty, though every Windows process has ntdll.dll loaded")]
    public void A_module_list_without_ntdll_is_an_inconsistent_dump(string? removed, string why)
    {
        // threadwait with ntdll.dll, or every module, gone from the module list: what Wine's writer wrote of the busy
        // loader while it ran (an empty list, seen in CI). Then no frame is named, the owner's included.
        ShapeDump dump = WineShapeDumps.Hang("threadwait");
        string copy = PatchedDumps.WithoutModule(dump.Path, $"shape-without-{removed ?? "modules"}.dmp", removed);

        Diagext.Result result = Diagext.Run("loaderlock", copy, "--json");
        TestContext.Out.WriteLine(Diagext.Run("loaderlock", copy).Stdout);
        Assert.That(result.ExitCode, Is.EqualTo(0), result.Stdout + result.Stderr);
        Assert.That(result.Findings, Is.Empty);
        Assert.That(NoteOf(result), Does.Match(why).And.Contain("take a dump with a writer that suspends the process"));
    }

    [Test]
    public void A_critical_section_that_is_not_plausible_as_a_whole_is_no_evidence_of_a_cycle()
    {
        // sectionload with the application section's owner replaced by a stack address: the kind of "critical
        // section" a heap block or a stack word makes. It no longer proves the cycle; the wait stays likely.
        ShapeDump dump = WineShapeDumps.Hang("sectionload");
        JsonElement original = Finding(dump);
        ulong section = Hex(original.GetProperty("owner").GetProperty("waitsForCriticalSection").GetString()!);
        string copy = PatchedDumps.Patched(dump.Path, "shape-implausible-section.dmp", section + 0x10, BitConverter.GetBytes(0x159f840UL));

        Diagext.Result result = Diagext.Run("loaderlock", copy, "--json");
        TestContext.Out.WriteLine(Diagext.Run("loaderlock", copy).Stdout);
        Assert.That(result.ExitCode, Is.EqualTo(1));
        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("owner").TryGetProperty("waitsForCriticalSection", out _), Is.False);
        Assert.That(finding.GetProperty("deadlock").GetString(), Is.EqualTo("likely"));
        Assert.That(finding.GetProperty("summary").GetString(), Does.Not.Contain("0x159f840"));
    }
}
