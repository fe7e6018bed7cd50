using System.Text.Json;
using System.Text.RegularExpressions;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hang;

/// <summary>
/// hang on samples/NativeLocks (Linux): pthread mutex waits join the wait-for graph. A Monitor -> pthread mutex cycle is
/// one deadlock naming both locks and both threads by the OS TIDs the sample printed; glibc's loader lock is named, with
/// its owner; a real library's own mutex (SQLite's connection mutex, mode sqlite) closes a cycle the same way; a lone
/// waiter on a sleeping holder is no finding. The expectations are in samples/NativeLocks/GROUND-TRUTH.md, written from
/// glibc's and SQLite's code before diagext was run on the sample; a constructor that sleeps under the loader lock
/// (dlopenchain) is a chain of the threads calling dlopen behind it. nativemutex is dumped twice, the others once.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public partial class HangNativeLockTests
{
    private sealed record Truth(string Name, int ManagedId, uint OsId, string Holds, string Waits);

    private sealed record Sample(string Path, string Output)
    {
        public IReadOnlyList<Truth> Threads => ThreadLine().Matches(Output)
            .Select(m => new Truth(m.Groups[1].Value, int.Parse(m.Groups[2].Value), uint.Parse(m.Groups[3].Value), m.Groups[4].Value, m.Groups[5].Value)).ToList();

        public Truth Thread(string name) => Threads.Single(t => t.Name == name);

        public string Mutex(string name) => "0x" + Regex.Match(Output, $@"^mutex {name} 0x([0-9a-f]+)$", RegexOptions.Multiline).Groups[1].Value;
    }

    [GeneratedRegex(@"^thread (\S+) managed (\d+) os (\d+) holds (\S+) waits (\S+)$", RegexOptions.Multiline)]
    private static partial Regex ThreadLine();

    private static Sample Of(string mode, int run = 1)
    {
        DumpMaker.SampleDump dump = DumpMaker.DumpOfSampleWithOutput("NativeLocks", null, $"nativelock-{mode}-{run}.core", mode);
        return new Sample(dump.Path, dump.Output);
    }

    [OneTimeSetUp]
    public void LinuxOnly() => Assume.That(OperatingSystem.IsLinux(), "glibc's locks: the sample runs on Linux only");

    private static IEnumerable<TestCaseData> Runs() => Enumerable.Range(1, 2).Select(r => new TestCaseData(r).SetArgDisplayNames($"run {r}"));

    private static Dictionary<string, JsonElement> Locks(JsonElement finding) =>
        finding.GetProperty("locks").EnumerateArray().ToDictionary(l => l.GetProperty("address").GetString()!);

    private static uint[] HeldBy(JsonElement l) => l.GetProperty("heldBy").EnumerateArray().Select(h => h.GetUInt32()).ToArray();

    [TestCaseSource(nameof(Runs))]
    public void A_Monitor_and_a_pthread_mutex_in_a_cycle_are_one_deadlock_naming_both(int run)
    {
        Sample sample = Of("nativemutex", run);
        Diagext.Result result = Diagext.Run("hang", sample.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("deadlock"));
        Truth caller = sample.Thread("caller"), native = sample.Thread("native");

        JsonElement[] cycle = finding.GetProperty("cycle").EnumerateArray().ToArray();
        Assert.That(cycle.Select(s => s.GetProperty("osThreadId").GetUInt32()), Is.EquivalentTo(new[] { caller.OsId, native.OsId }), sample.Output);
        var locks = Locks(finding);
        JsonElement mutex = locks[sample.Mutex("NativeGate")];
        Assert.That(mutex.GetProperty("kind").GetString(), Is.EqualTo("native-mutex"));
        Assert.That(mutex.GetProperty("type").GetString(), Is.EqualTo("pthread_mutex_t"));
        Assert.That(mutex.GetProperty("detail").GetString(), Does.StartWith("normal"));
        Assert.That(HeldBy(mutex), Is.EqualTo(new[] { native.OsId }));
        JsonElement monitor = locks.Values.Single(l => l.GetProperty("kind").GetString() == "monitor");
        Assert.That(monitor.GetProperty("path").GetString(), Is.EqualTo("NativeLocks.MixedCycle.LedgerLock"));
        Assert.That(HeldBy(monitor), Is.EqualTo(new[] { caller.OsId }));

        JsonElement callerStep = cycle.Single(s => s.GetProperty("osThreadId").GetUInt32() == caller.OsId);
        Assert.That(callerStep.GetProperty("managedThreadId").GetInt32(), Is.EqualTo(caller.ManagedId));
        Assert.That(callerStep.GetProperty("waitsFor").GetString(), Is.EqualTo(sample.Mutex("NativeGate")));
        Assert.That(callerStep.GetProperty("holds").GetString(), Is.EqualTo(monitor.GetProperty("address").GetString()));
        Assert.That(callerStep.GetProperty("frame").GetString(), Does.StartWith("libc.so.6!pthread_mutex_lock"));
        JsonElement nativeStep = cycle.Single(s => s.GetProperty("osThreadId").GetUInt32() == native.OsId);
        Assert.That(nativeStep.GetProperty("holds").GetString(), Is.EqualTo(sample.Mutex("NativeGate")));
        Assert.That(nativeStep.GetProperty("frame").GetString(), Is.EqualTo("Monitor.Enter"));
        Assert.That(finding.GetProperty("title").GetString(), Does.Contain("pthread mutex").And.Contain("Monitor"));
    }

    [Test]
    public void The_loader_lock_is_named_with_its_owner_and_its_native_frames()
    {
        Sample sample = Of("dlopen");
        Truth loader = sample.Thread("loader"), keeper = sample.Thread("gatekeeper");
        Assert.That(sample.Output, Does.Contain($"loaderlock owner os {loader.OsId}"));

        Diagext.Result json = Diagext.Run("hang", sample.Path, "--json");
        Assert.That(json.ExitCode, Is.EqualTo(1), json.Stdout + json.Stderr);
        JsonElement finding = json.Findings.Single();
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("deadlock"));
        Assert.That(finding.GetProperty("cycle").EnumerateArray().Select(s => s.GetProperty("osThreadId").GetUInt32()), Is.EquivalentTo(new[] { loader.OsId, keeper.OsId }));
        var locks = Locks(finding);
        JsonElement gate = locks[sample.Mutex("Gate")];
        Assert.That(HeldBy(gate), Is.EqualTo(new[] { keeper.OsId }));
        JsonElement loaderLock = locks.Values.Single(l => l.GetProperty("address").GetString() != sample.Mutex("Gate"));
        Assert.That(HeldBy(loaderLock), Is.EqualTo(new[] { loader.OsId }));
        string detail = loaderLock.GetProperty("detail").GetString()!;
        Assert.That(detail, Does.Match(@"^_rtld_global\+0x[0-9a-f]+ in ld-linux-x86-64\.so\.2; recursive, taken 1 time, owner TID "));
        Assert.That(detail, Does.Contain("libnlslowinit.so!nl_slowinit_constructor").And.Contain("libc.so.6!dlopen"), "the owner's native frames");
        Assert.That(finding.GetProperty("advice").GetString(), Does.Contain("loader lock"));

        Diagext.Result text = Diagext.Run("hang", sample.Path);
        Assert.That(text.Stdout, Does.Match($@"thread 0x{keeper.OsId:x} \(managed {keeper.ManagedId}\) holds pthread mutex libnlgate\.so!gate {sample.Mutex("Gate")}, waits for the loader lock \(glibc _dl_load_lock\) 0x[0-9a-f]+ held by thread 0x{loader.OsId:x} "));
        Assert.That(text.Stdout, Does.Match($@"thread 0x{loader.OsId:x} \(managed {loader.ManagedId}\) holds the loader lock \(glibc _dl_load_lock\) 0x[0-9a-f]+, waits for pthread mutex libnlgate\.so!gate"));
    }

    [Test]
    public void Threads_behind_a_loader_lock_owner_that_sleeps_are_a_chain_naming_the_lock()
    {
        Sample sample = Of("dlopenchain");
        Truth loader = sample.Thread("loader");
        Diagext.Result result = Diagext.Run("hang", sample.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(0), "a chain from one dump is a note: " + result.Stdout + result.Stderr);
        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("blocked-chain"));
        Assert.That(finding.GetProperty("summary").GetString(), Does.StartWith($"2 threads wait for the loader lock (glibc _dl_load_lock), held by thread 0x{loader.OsId:x} (managed {loader.ManagedId})"));
        Assert.That(finding.GetProperty("threads").EnumerateArray().Select(t => t.GetProperty("osThreadId").GetUInt32()),
            Is.EquivalentTo(sample.Threads.Select(t => t.OsId)), sample.Output);
        JsonElement loaderLock = Locks(finding).Values.Single();
        Assert.That(HeldBy(loaderLock), Is.EqualTo(new[] { loader.OsId }));
        Assert.That(loaderLock.GetProperty("detail").GetString(), Does.Contain("libnlstuckinit.so!nl_stuckinit_constructor"));
        Assert.That(finding.GetProperty("evidence").EnumerateArray().Select(e => e.GetString()), Has.Some.Contains("nl_stuckinit_constructor"), "the owner's frames on a line of their own");
    }

    [Test]
    public void A_real_library_s_own_mutex_closes_the_cycle_the_ground_truth_says()
    {
        Sample sample = Of("sqlite");
        Truth cache = sample.Thread("cache"), query = sample.Thread("query");
        Diagext.Result result = Diagext.Run("hang", sample.Path, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        JsonElement finding = result.Findings.Single();
        Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("deadlock"));
        JsonElement[] cycle = finding.GetProperty("cycle").EnumerateArray().ToArray();
        Assert.That(cycle.Select(s => s.GetProperty("osThreadId").GetUInt32()), Is.EquivalentTo(new[] { cache.OsId, query.OsId }));
        var locks = Locks(finding);
        JsonElement monitor = locks.Values.Single(l => l.GetProperty("kind").GetString() == "monitor");
        Assert.That(monitor.GetProperty("path").GetString(), Is.EqualTo("NativeLocks.SqliteCycle.CacheLock"));
        Assert.That(HeldBy(monitor), Is.EqualTo(new[] { cache.OsId }));
        JsonElement connection = locks.Values.Single(l => l.GetProperty("kind").GetString() == "native-mutex");
        Assert.That(connection.GetProperty("detail").GetString(), Does.StartWith("recursive"));
        Assert.That(HeldBy(connection), Is.EqualTo(new[] { query.OsId }));
        JsonElement cacheStep = cycle.Single(s => s.GetProperty("osThreadId").GetUInt32() == cache.OsId);
        Assert.That(cacheStep.GetProperty("frame").GetString(), Does.StartWith("libc.so.6!pthread_mutex_lock"));
        Assert.That(cacheStep.GetProperty("callerFrame").GetString(), Does.EndWith("sqlite3_exec"));
        Assert.That(cycle.Single(s => s.GetProperty("osThreadId").GetUInt32() == query.OsId).GetProperty("frame").GetString(), Is.EqualTo("Monitor.Enter"));
    }

    [Test]
    public void A_lone_waiter_on_a_sleeping_holder_is_no_finding()
    {
        Sample sample = Of("healthy");
        Diagext.Result result = Diagext.Run("hang", sample.Path);
        Assert.That(result.ExitCode, Is.EqualTo(0), result.Stdout + result.Stderr);
        Assert.That(result.Stdout + result.Stderr, Does.Contain("(1 for a lock); no cycle, no chain"), "the native wait is in the graph, alone");
    }
}
