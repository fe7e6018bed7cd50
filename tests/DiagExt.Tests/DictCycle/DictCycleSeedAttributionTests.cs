using System.Text.Json;
using DiagExt.Core.Analysis;
using DiagExt.Core.Detectors.DictCycle;
using DiagExt.Core.Targets;
using DiagExt.Core.Targets.Stacks;
using DiagExt.Tests.Hostile;
using DiagExt.Tests.Infrastructure;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.DictCycle;

/// <summary>
/// Which threads dictcycle names on the seed's caught race (samples/DictCycleSeed --catch, self-contained for .NET 8
/// and 9, dumped by their own createdump): only threads that use the table now (the sample prints their managed ids
/// before DiagExt looks), never a thread whose only tie is a stale copy of an address or a frame the thread is not in.
/// The two false cases seen in the field are built on purpose: in patched copies of real cores, an idle thread whose
/// stack keeps the address of a dead exception the table threw, and one whose managed frames are another thread's (a
/// collection frame among them, all outside its own stack); in a real core, a main thread after Main returned, whose
/// only frame has a stack pointer of 0 (or another thread's). scripts/seed-attribution.sh runs the race test over 40+ dumps.
/// </summary>
[TestFixture]
[NonParallelizable]
[Category(TestKind.Dump)]
public class DictCycleSeedAttributionTests
{
    /// <summary>
    /// Both runtimes for the campaign (scripts/seed-attribution.sh); in the suite one, 9.0.23: a caught race there costs
    /// a self-contained publish, launches until the race is caught (about one in thirty under load) and two patched
    /// cores, and the suite's time budget does not pay for that twice.
    /// </summary>
    public static readonly string[] Runtimes = DumpsPerRuntime > 0 ? ["8.0.33", "9.0.23"] : ["9.0.23"];

    private const string Holder = "ConcurrentDictionary.Program._dict";

    /// <summary>
    /// Fresh dumps per runtime in the race test, set by scripts/seed-attribution.sh (DIAGEXT_SEED_DUMPS); 0 in the suite,
    /// where the race test checks the one race dump per runtime the patched cases start from (a launch, a createdump and
    /// a diagext run each cost seconds, more under load).
    /// </summary>
    private static int DumpsPerRuntime => int.TryParse(Environment.GetEnvironmentVariable("DIAGEXT_SEED_DUMPS"), out int n) && n > 0 ? n : 0;

    private static readonly Dictionary<string, SeedRace> Races = new();

    /// <summary>Runtimes whose seed never raced in this run: the next test on it is inconclusive at once, not after as many launches again.</summary>
    private static readonly Dictionary<string, string> NoRace = new();

    /// <summary>One race dump per runtime for the patched cases (each patches a copy).</summary>
    private static SeedRace RaceOf(string runtime)
    {
        lock (Races)
        {
            if (NoRace.TryGetValue(runtime, out string? why))
                Assert.Inconclusive(why);
            if (!Races.TryGetValue(runtime, out SeedRace? race))
            {
                try
                {
                    Races[runtime] = race = SeedRace.Take(SelfContainedSample.Publish("DictCycleSeed", runtime), $"seed-attribution-{runtime}.core", mainReturns: false);
                }
                catch (NoRaceException e)
                {
                    NoRace[runtime] = e.Message;
                    Assert.Inconclusive(e.Message);
                    throw; // not reached: Inconclusive throws
                }
            }
            return race;
        }
    }

    [OneTimeTearDown]
    public void DeleteDumps()
    {
        // The patched copies too: CorePatch leaves its file (~150 MB each).
        foreach (SeedRace race in Races.Values)
            foreach (string path in new[] { race.Path, race.Path + ".stale", race.Path + ".bogus" })
                File.Delete(path);
        Races.Clear();
    }

    [TestCaseSource(nameof(Runtimes))]
    public void Every_finding_names_only_hammering_threads_and_at_least_one_of_them(string runtime)
    {
        string exe = SelfContainedSample.Publish("DictCycleSeed", runtime);
        string? log = Environment.GetEnvironmentVariable("DIAGEXT_SEED_LOG");
        var report = new List<string>();
        var wrong = new List<string>();
        int dumps = Math.Max(1, DumpsPerRuntime);
        for (int i = 1; i <= dumps; i++)
        {
            // Half the dumps with a main thread that has thrown from the table and returned from Main (seen named, with
            // one frame at stack pointer 0), half with one asleep in the harness after catching the first race's exception.
            SeedRace race = DumpsPerRuntime == 0 ? RaceOf(runtime) : SeedRace.Take(exe, $"seed-race-{runtime}-{i}.core", mainReturns: i % 2 == 0);
            Diagext.Result result = Diagext.Run("dictcycle", race.Path, "--json");
            if (DumpsPerRuntime > 0)
                File.Delete(race.Path); // ~100-200 MB each: keep none
            Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);

            JsonElement table = result.Findings.Single(f => f.TryGetProperty("holder", out JsonElement h) && h.GetString() == Holder);
            var named = new List<string>();
            int wrongBefore = wrong.Count;
            foreach (JsonElement finding in result.Findings)
                foreach (JsonElement thread in finding.GetProperty("threads").EnumerateArray())
                {
                    int? managed = ManagedId(thread);
                    string who = $"{managed?.ToString() ?? "-"}/0x{thread.GetProperty("osThreadId").GetUInt32():x} ({thread.GetProperty("role").GetString()})";
                    named.Add(who);
                    if (managed is not int id || !race.Hammering.Contains(id))
                        wrong.Add($"{runtime} dump {i} ({race.Mode}): named {who}, hammering are {string.Join(" ", race.Hammering)}");
                }
            int hammeringNamed = table.GetProperty("threads").EnumerateArray().Count(t => ManagedId(t) is int id && race.Hammering.Contains(id));
            if (hammeringNamed == 0)
                wrong.Add($"{runtime} dump {i} ({race.Mode}): no hammering thread named");

            // The verdict names each kind of exception the census found (both when both were thrown).
            string verdict = table.GetProperty("verdict").GetString()!;
            string[] census = [.. table.GetProperty("exceptions").EnumerateArray().Select(e => e.GetProperty("type").GetString()!).Distinct()];
            if (census is not ["InvalidOperationException"] && census.Any(type => !verdict.Contains(type)))
                wrong.Add($"{runtime} dump {i}: verdict \"{verdict}\" misses one of the census's {string.Join(", ", census)}");

            // One line per dump for scripts/seed-attribution.sh: runtime, dump, mode, launches, findings, threads named,
            // hammering threads named, problems, census, verdict, who was named.
            string line = $"{runtime}\t{i}\t{race.Mode}\t{race.Launches}\t{result.Findings.Count()}\t{named.Count}\t{hammeringNamed}\t{wrong.Count - wrongBefore}\t{string.Join(", ", census)}\t{verdict}\t{string.Join("; ", named)}";
            report.Add(line);
            if (log is not null)
                File.AppendAllText(log, line + Environment.NewLine);
        }
        TestContext.Out.WriteLine(string.Join("\n", report));
        Assert.That(wrong, Is.Empty, string.Join("\n", report));
    }

    [TestCaseSource(nameof(Runtimes))]
    public void A_thread_whose_stack_keeps_the_address_of_a_dead_exception_of_the_table_is_not_named(string runtime)
    {
        SeedRace race = RaceOf(runtime);
        ulong exception, deadSlot, liveSlot;
        uint bystander;
        using var patch = new CorePatch(race.Path, race.Path + ".stale");
        using (Target target = TargetOpener.OpenDump(race.Path))
        {
            TargetThread idle = Bystander(target, race);
            bystander = idle.OsThreadId;
            exception = DeadExceptionOfTheTable(target);
            // Below its stack pointer: memory the thread has left. In its outermost real method frame: a slot that held 0,
            // so no code of the thread uses it (checked below: the stack walk is unchanged by the write).
            deadSlot = (idle.Stack.StackPointer - 0x80) & ~7UL;
            patch.WriteUInt64(deadSlot, exception);
            liveSlot = 0;
            foreach (ulong slot in ZeroSlots(target, idle))
            {
                patch.WriteUInt64(slot, exception);
                using Target patched = TargetOpener.OpenDump(patch.Path);
                if (SameFrames(idle, patched.FindThread(bystander)!))
                {
                    liveSlot = slot;
                    break;
                }
                patch.WriteUInt64(slot, 0);
            }
            Assert.That(liveSlot, Is.Not.Zero, "a zero slot whose write leaves the stack walk as it was");
            TestContext.Out.WriteLine($"thread 0x{bystander:x}: exception 0x{exception:x} written at 0x{deadSlot:x} (below its stack pointer 0x{idle.Stack.StackPointer:x}) and 0x{liveSlot:x} (in frame {idle.Frames.Last(f => f.MethodName is not null).ShortName})");
        }

        using (Target patched = TargetOpener.OpenDump(patch.Path))
        {
            TargetThread idle = patched.FindThread(bystander)!;
            Assert.That(idle.Stack.Find(exception)?.Address, Is.EqualTo(liveSlot), "the word below the stack pointer is not read");
            StackHold hold = idle.Holds(exception);
            Assert.That(hold.Kind, Is.EqualTo(HoldKind.Stale));
            Assert.That(hold.Note, Does.StartWith("a stale reference to ").And.Contain("in unused stack memory"));
        }
        // What --verbose shows of it: the detector's outcome lists the evidence set aside.
        string verbose = Diagext.Run("dictcycle", patch.Path, "--verbose").Stdout;
        Assert.That(verbose, Does.Contain("dictcycle: set aside (weighed, not counted):"), verbose);
        Assert.That(verbose.Split('\n'), Has.Some.Matches<string>(l => l!.Contains($"thread 0x{bystander:x} not listed:") && l.Contains($"0x{exception:x} in unused stack memory")), verbose);
        AssertNotNamed(patch.Path, bystander, race);
    }

    [TestCaseSource(nameof(Runtimes))]
    public void A_thread_whose_managed_frames_are_another_threads_is_not_named(string runtime)
    {
        SeedRace race = RaceOf(runtime);
        uint bystander;
        ManagedFrame collection;
        using var patch = new CorePatch(race.Path, race.Path + ".bogus");
        using (Target target = TargetOpener.OpenDump(race.Path))
        {
            // An idle thread in a P/Invoke wait: its InlinedCallFrame records where the managed caller's frame is (stack
            // pointer) and runs (return address). Point it at a hammering thread's collection frame: the walk then goes on
            // up that thread's stack, giving the idle thread frames it is not in, all outside its own stack.
            TargetThread idle = Bystander(target, race);
            bystander = idle.OsThreadId;
            int inlined = Enumerable.Range(0, idle.Frames.Count).First(i => idle.Frames[i].Display == "[InlinedCallFrame]");
            ManagedFrame caller = idle.Frames.Skip(inlined).First(f => f.MethodName is not null);
            ulong frameAddress = idle.Frames[inlined].StackPointer;
            ulong[] fields = [.. Enumerable.Range(0, 8).Select(k => Read(target, frameAddress + (ulong)(8 * k)))];
            int spField = Array.IndexOf(fields, caller.StackPointer), ipField = Array.IndexOf(fields, caller.InstructionPointer);
            Assert.That(spField >= 0 && ipField >= 0, $"InlinedCallFrame 0x{frameAddress:x} holds its caller's stack pointer and return address: {string.Join(" ", fields.Select(f => $"{f:x}"))}");
            collection = target.Threads.Where(t => race.Hammering.Contains(t.ManagedThreadId ?? -1))
                .SelectMany(t => t.Frames).First(HashTableTypes.IsCollectionMethod);
            patch.WriteUInt64(frameAddress + (ulong)(8 * spField), collection.StackPointer);
            patch.WriteUInt64(frameAddress + (ulong)(8 * ipField), collection.InstructionPointer);
            TestContext.Out.WriteLine($"thread 0x{bystander:x}: InlinedCallFrame 0x{frameAddress:x} now returns to {collection.ShortName} at 0x{collection.StackPointer:x}");
        }

        using (Target patched = TargetOpener.OpenDump(patch.Path))
        {
            TargetThread idle = patched.FindThread(bystander)!;
            ThreadStack stack = idle.Stack;
            string frames = string.Join("\n", stack.Frames.Select(f => $"0x{f.StackPointer:x} {f.Display}"));
            int bogus = Enumerable.Range(0, stack.Frames.Count).First(i => HashTableTypes.IsCollectionMethod(stack.Frames[i]));
            Assert.That(stack.Frames[bogus].StackPointer, Is.EqualTo(collection.StackPointer), frames);
            Assert.That(Enumerable.Range(0, stack.Frames.Count).Where(i => stack.Frames[i].MethodName is not null), Has.None.Matches<int>(stack.IsReal), frames);
            Assert.That(stack.FrameProblem(bogus), Does.Contain("not in its live stack"));
            IReadOnlyList<string> setAside = SetAside(patched);
            Assert.That(setAside, Has.Some.Matches<string>(l => l!.Contains($"thread 0x{bystander:x} not listed:") && l.Contains($"frame {stack.Frames[bogus].ShortName} is not evidence")), string.Join("\n", setAside));
        }
        AssertNotNamed(patch.Path, bystander, race);
    }

    [TestCaseSource(nameof(Runtimes))]
    public void A_main_thread_after_Main_returned_has_no_frame_that_counts(string runtime)
    {
        // No patch: the seed's main thread throws from the table, then returns from Main while the writers go on. The stack
        // walk still gives it one "managed" frame made of registers the thread does not have: zeros, or the registers of the
        // thread walked before it (ClrMD keeps the last context it read; in a fresh diagext the main thread is walked first).
        SeedRace race;
        try
        {
            race = SeedRace.Take(SelfContainedSample.Publish("DictCycleSeed", runtime), $"seed-main-returns-{runtime}.core", mainReturns: true);
        }
        catch (NoRaceException e)
        {
            Assert.Inconclusive(e.Message);
            throw; // not reached: Inconclusive throws
        }
        try
        {
            foreach (bool othersFirst in new[] { false, true })
            {
                using Target target = TargetOpener.OpenDump(race.Path);
                if (othersFirst)
                    foreach (TargetThread other in target.Threads.Where(t => t.ManagedThreadId != 1))
                        _ = other.Frames;
                TargetThread main = target.Threads.Single(t => t.ManagedThreadId == 1);
                string frames = string.Join("; ", main.Frames.Select(f => $"0x{f.StackPointer:x} {f.Display}"));
                Assert.That(main.Frames, Has.Count.EqualTo(1), frames);
                Assert.That(main.Stack.IsReal(0), Is.False, $"{frames}; its live stack {main.Stack.Live}");
                Assert.That(main.Stack.Notes, Has.Some.StartsWith("frame 0 ").And.Contains("is not evidence: its stack pointer"), frames);
                TestContext.Out.WriteLine($"main thread, walked {(othersFirst ? "after the others" : "first")}: {frames}: {main.Stack.FrameProblem(0)}");
            }
            AssertNotNamed(race.Path, (uint)0, race, notManaged: 1);
        }
        finally
        {
            File.Delete(race.Path);
        }
    }

    /// <summary>diagext names at least one hammering thread and not <paramref name="bystander"/> (nor the thread of managed id <paramref name="notManaged"/>).</summary>
    private static void AssertNotNamed(string core, uint bystander, SeedRace race, int notManaged = -1)
    {
        Diagext.Result result = Diagext.Run("dictcycle", core, "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        JsonElement table = result.Findings.Single(f => f.TryGetProperty("holder", out JsonElement h) && h.GetString() == Holder);
        JsonElement[] threads = [.. table.GetProperty("threads").EnumerateArray()];
        Assert.That(threads.Select(t => t.GetProperty("osThreadId").GetUInt32()), Does.Not.Contain(bystander), () => Diagext.Run("dictcycle", core).Stdout);
        Assert.That(threads.Select(ManagedId), Does.Not.Contain((int?)notManaged), () => Diagext.Run("dictcycle", core).Stdout);
        Assert.That(threads.Count(t => ManagedId(t) is int id && race.Hammering.Contains(id)), Is.GreaterThan(0));
    }

    /// <summary>A named thread's managed id; null for a thread the runtime does not know.</summary>
    private static int? ManagedId(JsonElement thread) =>
        thread.TryGetProperty("managedThreadId", out JsonElement id) && id.ValueKind == JsonValueKind.Number ? id.GetInt32() : null;

    /// <summary>The lines dictcycle set aside on this target (what --verbose shows), from the detector run in-process.</summary>
    private static IReadOnlyList<string> SetAside(Target target)
    {
        var detector = new DictCycleDetector();
        var context = new AnalysisContext(target, [detector.HeapInterest], CancellationToken.None);
        _ = detector.Analyze(context);
        context.Heap.WaitUntilStopped();
        return context.TakeSetAside();
    }

    /// <summary>An idle thread-pool worker (the race's Parallel.Invoke used it; it is not one of the three hammering threads).</summary>
    private static TargetThread Bystander(Target target, SeedRace race) =>
        target.Threads.FirstOrDefault(t => t.ManagedThreadId is int id && !race.Hammering.Contains(id)
            && t.Frames.Any(f => f.MethodName == "WorkerThreadStart") && t.Frames.Any(f => f.Display == "[InlinedCallFrame]"))
        ?? throw new InconclusiveException("no idle thread-pool worker in a P/Invoke wait in this dump");

    /// <summary>An InvalidOperationException or IndexOutOfRangeException the Dictionary threw that nothing reaches any more.</summary>
    private static ulong DeadExceptionOfTheTable(Target target)
    {
        HashSet<ulong> reachable = HeapReachability.FullMark(target);
        var current = target.Threads.Select(t => t.CurrentException).ToHashSet();
        return target.Runtime!.Heap.EnumerateObjects()
            .Where(o => o.Type?.Name is "System.InvalidOperationException" or "System.IndexOutOfRangeException" && !reachable.Contains(o.Address) && !current.Contains(o.Address))
            .First(o => o.AsException()!.EnumerateExceptionStackTrace().Any(f => f.Method?.Type?.Name?.StartsWith("System.Collections.Generic.Dictionary<", StringComparison.Ordinal) == true))
            .Address;
    }

    /// <summary>Slots holding 0 in the thread's outermost real method frame, innermost first.</summary>
    private static IEnumerable<ulong> ZeroSlots(Target target, TargetThread thread)
    {
        ThreadStack stack = thread.Stack;
        int outermost = Enumerable.Range(0, stack.Frames.Count).Last(i => stack.Frames[i].MethodName is not null && stack.IsReal(i));
        StackRange range = stack.RangeOf(outermost)!.Value;
        for (ulong slot = range.Low + 8; slot + 8 <= range.High; slot += 8)
            if (Read(target, slot) == 0)
                yield return slot;
    }

    /// <summary>The same method frames (runtime transition frames carry registers of whatever was walked before: not compared).</summary>
    private static bool SameFrames(TargetThread before, TargetThread after) =>
        before.Frames.Where(f => f.MethodName is not null).Select(f => (f.StackPointer, f.InstructionPointer, f.Display))
            .SequenceEqual(after.Frames.Where(f => f.MethodName is not null).Select(f => (f.StackPointer, f.InstructionPointer, f.Display)));

    private static ulong Read(Target target, ulong address)
    {
        byte[] bytes = new byte[8];
        return target.ReadMemory(address, bytes) == 8 ? BitConverter.ToUInt64(bytes) : 0;
    }
}
