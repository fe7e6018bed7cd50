using DiagExt.Core;
using DiagExt.Core.Native;
using DiagExt.Core.Native.Elf;
using DiagExt.Core.Targets;
using DiagExt.Core.Targets.Stacks;
using DiagExt.Tests.Infrastructure;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.Targets;

/// <summary>
/// The shared stack evidence (<see cref="ThreadStack"/>, <see cref="TargetThread.Holds(ulong)"/>, <see cref="LiveObjects"/>)
/// on a real core of the DictCycle sample (three threads hammering a corrupt static Dictionary and throwing from it),
/// checked against what the core says without DiagExt's stack code: each thread's stack pointer from its NT_PRSTATUS
/// note, the mapping it lies in from the PT_LOAD headers, and reachability from a plain full mark over the same roots.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class ThreadStackTests
{
    private static string _core = "";
    private static Target _target = null!;

    [OneTimeSetUp]
    public void Open()
    {
        _core = DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core");
        _target = TargetOpener.OpenDump(_core);
    }

    [OneTimeTearDown]
    public void Close() => _target?.Dispose();

    private static IEnumerable<TargetThread> Managed => _target.Threads.Where(t => t.ClrThread is not null && t.Frames.Count > 0);

    [Test]
    public void The_live_stack_runs_from_the_stack_pointer_in_the_core_to_the_end_of_its_mapping()
    {
        Dictionary<uint, ulong> rsp = StackPointersFromPrStatus(_core);
        using ElfCoreFile core = ElfCoreFile.Open(_core);
        var loads = core.Elf.ProgramHeaders.Where(h => h.Type == ElfProgramHeader.Load && h.FileSize > 0).ToList();
        foreach (TargetThread thread in Managed)
        {
            ThreadStack stack = thread.Stack;
            Assert.That(stack.StackPointer, Is.EqualTo(rsp[thread.OsThreadId]), $"thread 0x{thread.OsThreadId:x}");
            var mapping = loads.Single(h => stack.StackPointer >= h.VirtualAddress && stack.StackPointer - h.VirtualAddress < h.FileSize);
            Assert.That(stack.Live, Is.EqualTo(new StackRange(stack.StackPointer, mapping.VirtualAddress + mapping.FileSize)), $"thread 0x{thread.OsThreadId:x}");
            Assert.That(stack.Words.Where(w => !w.InRegister), Has.All.Matches<StackWord>(w => stack.Live.Contains(w.Address)));
        }
    }

    [Test]
    public void Frames_inside_the_live_stack_are_real_and_each_owns_the_words_up_to_its_caller()
    {
        int checkedFrames = 0;
        foreach (TargetThread thread in Managed)
        {
            ThreadStack stack = thread.Stack;
            for (int i = 0; i < stack.Frames.Count; i++)
            {
                ulong sp = stack.Frames[i].StackPointer;
                Assert.That(stack.IsReal(i), Is.EqualTo(sp != 0 && stack.Live.Contains(sp)), $"thread 0x{thread.OsThreadId:x} frame {i} at 0x{sp:x}, live {stack.Live}: {stack.FrameProblem(i)}");
                if (!stack.IsReal(i))
                    continue;
                // Its caller: the nearest real frame further out whose stack pointer is higher.
                ulong caller = Enumerable.Range(i + 1, stack.Frames.Count - i - 1).Where(stack.IsReal).Select(j => stack.Frames[j].StackPointer)
                    .Where(s => s > sp).DefaultIfEmpty(stack.Live.High).Min();
                Assert.That(stack.RangeOf(i), Is.EqualTo(new StackRange(sp, caller)));
                Assert.That(stack.WordsInFrame(i), Has.All.Matches<StackWord>(w => w.Address >= sp && w.Address < caller));
                Assert.That(stack.WordsThrough(i).Where(w => !w.InRegister), Has.All.Matches<StackWord>(w => w.Address >= stack.Live.Low && w.Address < caller));
                checkedFrames++;
            }
        }
        Assert.That(checkedFrames, Is.GreaterThan(10));
    }

    [Test]
    public void The_hammering_threads_hold_the_static_dictionary_and_the_liveness_of_every_exception_agrees_with_a_full_mark()
    {
        ClrHeap heap = _target.Runtime!.Heap;
        ClrObject dictionary = heap.EnumerateObjects().Single(o => o.Type?.Name == "System.Collections.Generic.Dictionary<System.String, System.Int32>"
            && o.Address == ReadStatic("DictionaryTarget", "Dict"));
        Assert.That(_target.Liveness!.Of(dictionary.Address), Is.EqualTo(Liveness.Live));
        var holding = Managed.Select(t => t.Holds(dictionary.Address)).Where(h => h.Counts).ToList();
        Assert.That(holding, Has.Count.GreaterThanOrEqualTo(1), "a thread inside the dictionary's code holds it");

        HashSet<ulong> reachable = HeapReachability.FullMark(_target);
        var exceptions = heap.EnumerateObjects().Where(o => o.Type?.Name is "System.InvalidOperationException" or "System.IndexOutOfRangeException").Take(2000).ToList();
        Assert.That(exceptions.Count(e => !reachable.Contains(e.Address)), Is.GreaterThan(10), "the hammering leaves dead exceptions on the heap");
        foreach (ClrObject e in exceptions)
            Assert.That(_target.Liveness.Of(e.Address), Is.EqualTo(reachable.Contains(e.Address) ? Liveness.Live : Liveness.Dead), $"0x{e.Address:x}");

        // A thread's copy of a dead exception is stale unless a real frame of the exception's own code holds it.
        foreach (TargetThread thread in Managed)
            foreach (ClrObject e in exceptions.Where(e => !reachable.Contains(e.Address) && e.Address != thread.CurrentException))
                Assert.That(thread.Holds(e.Address).Kind, Is.AnyOf(HoldKind.None, HoldKind.Stale, HoldKind.FrameThis), $"thread 0x{thread.OsThreadId:x}, 0x{e.Address:x}");
    }

    [Test]
    public void A_small_mark_limit_answers_unknown_rather_than_dead()
    {
        using Target target = TargetOpener.OpenDump(_core, new TargetOptions { Limits = Limits.Default with { MaxLiveMarkObjects = 50 } });
        ClrHeap heap = target.Runtime!.Heap;
        HashSet<ulong> reachable = HeapReachability.FullMark(target);
        ClrObject dead = heap.EnumerateObjects().First(o => o.Type?.Name == "System.InvalidOperationException" && !reachable.Contains(o.Address));
        Assert.That(target.Liveness!.Of(dead.Address), Is.EqualTo(Liveness.Unknown));
        Assert.That(target.Liveness.MarkedCount, Is.LessThanOrEqualTo(50 + 1));
    }

    private static ulong ReadStatic(string typeName, string field)
    {
        ClrRuntime runtime = _target.Runtime!;
        ClrType type = runtime.EnumerateModules().Select(m => m.GetTypeByName(typeName)).OfType<ClrType>().First();
        return type.GetStaticFieldByName(field)!.ReadObject(runtime.AppDomains[0]).Address;
    }

    /// <summary>Each thread's rsp as the kernel's NT_PRSTATUS layout has it (x86-64: pr_reg at 112, rsp its 20th register).</summary>
    private static Dictionary<uint, ulong> StackPointersFromPrStatus(string path)
    {
        using ElfCoreFile core = ElfCoreFile.Open(path);
        var result = new Dictionary<uint, ulong>();
        foreach (ElfNote note in core.Elf.EnumerateNotes().Where(n => n.Type == ElfNote.PrStatus && n.Name == "CORE"))
            result[BitConverter.ToUInt32(note.Descriptor, 32)] = BitConverter.ToUInt64(note.Descriptor, 112 + 19 * 8);
        return result;
    }
}
