using System.Globalization;
using DiagExt.Core.Native.Minidump;
using DiagExt.Core.Native.Symbols;
using DiagExt.Core.Native.Windows;
using DiagExt.Core;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.LoaderLock;

/// <summary>
/// The pieces `loaderlock` reads native locks and waits with, on real dumps: <see cref="CriticalSectionProbe"/>
/// (in Native/, for any detector that reads native locks) and the handle data stream.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class NativeLockReadingTests
{
    private static (MinidumpFile Dump, WindowsProcess Process, CriticalSectionProbe Probe, WindowsFlavor Flavor) Open(string path)
    {
        MinidumpFile dump = MinidumpFile.Open(path);
        WindowsProcess process = WindowsProcess.Open(dump)!;
        WindowsFlavor flavor = WindowsFlavor.Detect(dump, new NativeSymbolizer(dump, dump.Modules, Limits.Default));
        return (dump, process, new CriticalSectionProbe(dump, process.Layout, flavor.Encoding, process.Threads.Select(t => t.ThreadId).ToHashSet()), flavor);
    }

    private static ulong Hex(string text) => ulong.Parse(text[2..], NumberStyles.HexNumber);

    [Test]
    public void The_loader_lock_and_an_application_section_are_plausible_and_a_stack_word_is_not()
    {
        ShapeDump shape = WineShapeDumps.Hang("sectionload");
        var finding = Diagext.Run("loaderlock", shape.Path, "--json").Findings.Single();
        var (dump, process, probe, flavor) = Open(shape.Path);
        using (dump)
        {
            Assert.That(flavor, Is.EqualTo(new WindowsFlavor(Wine: true, WineWriter: true, CriticalSectionEncoding.Counting)));

            CriticalSectionCheck loaderLock = probe.Check(Hex(finding.GetProperty("lockAddress").GetString()!));
            Assert.That(loaderLock.Verdict, Is.EqualTo(CriticalSectionVerdict.Plausible), loaderLock.Why);
            Assert.That(loaderLock.Section!.OwningThread, Is.EqualTo(shape.Owner));

            CriticalSectionCheck section = probe.Check(Hex(finding.GetProperty("owner").GetProperty("waitsForCriticalSection").GetString()!));
            Assert.That(section.Verdict, Is.EqualTo(CriticalSectionVerdict.Plausible), section.Why);
            Assert.That(section.Section!.OwningThread, Is.EqualTo(shape.Victims[0]));
            Assert.That(section.Section.Waiters, Is.EqualTo(1), "the loader waits for it");

            // The owner's stack pointer: stack words fit some fields, never all of them.
            ulong stack = process.Threads.Single(t => t.ThreadId == shape.Owner).Registers!.StackPointer;
            int plausible = 0;
            for (ulong at = stack; at < stack + 0x400; at += 8)
                if (probe.Check(at).IsPlausible && probe.Check(at).Section!.IsHeld)
                    plausible++;
            Assert.That(plausible, Is.Zero);
            Assert.That(probe.Check(0x10).Verdict, Is.EqualTo(CriticalSectionVerdict.NotCaptured));
        }
    }

    [Test]
    public void A_section_owned_by_no_thread_of_the_dump_is_not_a_critical_section()
    {
        ShapeDump shape = WineShapeDumps.Hang("sectionload");
        var finding = Diagext.Run("loaderlock", shape.Path, "--json").Findings.Single();
        ulong section = Hex(finding.GetProperty("owner").GetProperty("waitsForCriticalSection").GetString()!);
        var (dump, process, _, _) = Open(shape.Path);
        using (dump)
        {
            var withoutThread = new CriticalSectionProbe(dump, process.Layout, CriticalSectionEncoding.Counting, process.Threads.Select(t => t.ThreadId).Where(t => t != shape.Victims[0]).ToHashSet());
            CriticalSectionCheck check = withoutThread.Check(section);
            Assert.That(check.Verdict, Is.EqualTo(CriticalSectionVerdict.NotACriticalSection));
            Assert.That(check.Why, Does.Contain($"OwningThread 0x{shape.Victims[0]:x} is no thread of this dump"));

            // Read as Windows' bit encoding, Wine's count of 1 waiter cannot be a LockCount.
            var bits = new CriticalSectionProbe(dump, process.Layout, CriticalSectionEncoding.Bits, process.Threads.Select(t => t.ThreadId).ToHashSet());
            Assert.That(bits.Check(section).Why, Does.Contain("LockCount 1 is not negative"));
        }
    }

    [Test]
    public void A_thread_handle_in_the_writers_handle_data_names_its_thread()
    {
        ShapeDump shape = WineShapeDumps.Hang("threadwait");
        var (dump, process, _, _) = Open(shape.Path);
        using (dump)
        {
            WindowsHandles handles = WindowsHandles.Read(process)!;
            WindowsHandle[] threads = dump.Handles!.Select(h => handles.Find(h.Value)!).Where(h => h.IsThread).ToArray();
            Assert.That(threads.Select(h => h.ThreadId), Is.EqualTo(new uint?[] { shape.Victims[0] }), "the one thread handle: the thread DllMain created");
            Assert.That(dump.Handles!.Select(h => h.TypeName), Has.Member("Key").And.Member("File"));
        }
    }

    [Test]
    public void Handle_data_written_by_crashpad_on_Windows_11_reads_with_type_names()
    {
        using MinidumpFile dump = MinidumpFile.Open(Repo.SharedDump("win11-x64-crashpad-tiny-exe.dmp"));
        IReadOnlyList<MinidumpHandle> handles = dump.Handles!;
        Assert.That(handles, Has.Count.EqualTo(147));
        Assert.That(handles[1], Is.EqualTo(handles[1] with { Value = 0x8, TypeName = "Event", ObjectName = null }));
        Assert.That(handles.Select(h => h.TypeName).Distinct(), Is.SupersetOf(new[] { "File", "Event", "IoCompletion", "Directory" }));
        Assert.That(handles.SelectMany(h => h.ObjectInfo), Is.Empty, "crashpad writes MINIDUMP_HANDLE_DESCRIPTOR, without object records");
        Assert.That(dump.WrittenByWine, Is.False);
    }
}
