using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.LoaderLock;

/// <summary>
/// A healthy, busy process: shapes.exe busy, eight threads looping LoadLibrary/GetProcAddress/FreeLibrary under Wine,
/// dumped while it runs (Wine's writer: memory copied while the threads move on) and with every thread suspended.
/// Ground truth: it never hangs, so no dump of it may give a hazard. Each dump's note is one of: the lock is free, a
/// normal moment, contention (the lock held while threads wait) or, only for dumps written while it ran, an
/// inconsistent dump with the advice to use a writer that suspends the process. Every dump gives exit 0. (Wine's
/// writer lists the memory regions first and copies them later, skipping what was unmapped in between, a FreeLibrary;
/// minidumpwriter.exe places its handle stream past the memory the list claims, so such a dump is never short of its
/// headers.) The campaign with many more dumps is samples/LoaderLockShapes/campaign.sh.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class BusyLoaderTests
{
    private const int DumpsOfEachKind = 3;

    private BusyDumps _dumps = null!;
    private readonly Dictionary<string, string> _notes = new();

    [OneTimeSetUp]
    public void DumpTheBusyLoader() => _dumps = WineShapeDumps.Busy(DumpsOfEachKind);

    /// <summary>Each dump is analysed once, by whichever test asks first.</summary>
    private string Note(string dump)
    {
        if (!_notes.TryGetValue(dump, out string? note))
            _notes[dump] = note = Verdict(dump);
        return note;
    }

    /// <summary>The loaderlock note on the dump, which must give exit 0 and no finding.</summary>
    private static string Verdict(string dump)
    {
        Diagext.Result result = Diagext.Run("loaderlock", dump, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(0), $"{dump}: {result.Stdout}{result.Stderr}");
        Assert.That(result.Findings, Is.Empty);
        JsonElement detector = result.Json.GetProperty("detectors").EnumerateArray().Single(d => d.GetProperty("name").GetString() == "loaderlock");
        string note = detector.GetProperty("reason").GetString()!;
        TestContext.Out.WriteLine($"{Path.GetFileName(dump)}: {note}");
        return note;
    }

    [Test]
    public void No_dump_written_while_it_runs_is_a_hazard_and_an_inconsistent_one_says_so()
    {
        foreach (string dump in _dumps.Running)
        {
            string note = Note(dump);
            Assert.That(note, Does.Contain("is free").Or.Contain("a normal moment").Or.Contain("contention, not a hang").Or.Contain("not one moment of the process"));
            if (note.Contains("not one moment of the process", StringComparison.Ordinal))
                Assert.That(note, Does.Contain("the dump was written while the process ran: this may be transient; take a dump with a writer that suspends the process")
                    .And.Contain("Wine's dbghelp wrote this one"));
        }
    }

    [Test]
    public void No_dump_of_the_suspended_process_is_a_hazard_or_inconsistent()
    {
        foreach (string dump in _dumps.Suspended)
        {
            string note = Note(dump);
            Assert.That(note, Does.Contain("is free").Or.Contain("a normal moment").Or.Contain("contention, not a hang"));
        }
    }

    [Test]
    public void Contention_names_the_owner_and_its_stack()
    {
        string[] contention = _dumps.Running.Concat(_dumps.Suspended).Select(Note).Where(n => n.Contains("contention", StringComparison.Ordinal)).ToArray();
        if (contention.Length == 0)
            Assert.Inconclusive($"none of the {2 * DumpsOfEachKind} dumps caught the lock held with waiters");
        foreach (string note in contention)
        {
            Assert.That(note, Does.Match(@"is held by thread 0x[0-9a-f]+ .*; the owner .* and \d+ threads? waits? for it: contention, not a hang"));
            // From the top frame, each named by its module, and by its export where it has one: a dump can catch the owner
            // inside one of ntdll's unexported functions (ntdll+0x2dd20 under LdrLoadDll, seen in a CI run).
            Assert.That(note, Does.Match(@"Owner's stack: \w[\w.]*(![A-Za-z_]\w*(\+0x[0-9a-f]+)?|\+0x[0-9a-f]+)( <-|$)"), "from the top frame");
            Assert.That(note, Does.Match(@"Owner's stack: .*\w!([A-Za-z_]\w*)"), "a frame named by its export");
            if (System.Text.RegularExpressions.Regex.IsMatch(note, "the owner is (loading|unloading|resolving|looking up)"))
                Assert.That(note, Does.Match("Owner's stack: .*!(Ldr|LoadLibrary|FreeLibrary|GetProcAddress|GetModuleHandle)"), "through the loader call it is in");
            string owner = System.Text.RegularExpressions.Regex.Match(note, "held by thread 0x([0-9a-f]+)").Groups[1].Value;
            Assert.That(_dumps.Threads.Select(t => t.ToString("x")), Has.Member(owner), "the owner is one of the looping threads");
        }
    }
}
