using DiagExt.Core.Native.Minidump;

namespace DiagExt.Core.Native.Windows;

/// <summary>
/// A Windows process as its own code sees it, read from a minidump with no DAC and no PDB: its bitness (x86, x64,
/// or x86 under WOW64 in a dump written by a 64-bit tool), the layout of its TEB/PEB, and each thread's TEB,
/// registers and stack.
/// </summary>
internal sealed class WindowsProcess
{
    private WindowsProcess(MinidumpFile dump, WindowsLayout layout, bool isWow64, IReadOnlyList<WindowsThread> threads)
    {
        Dump = dump;
        Layout = layout;
        IsWow64 = isWow64;
        Threads = threads;
    }

    public MinidumpFile Dump { get; }

    public WindowsLayout Layout { get; }

    /// <summary>A 32-bit process in a dump written by a 64-bit writer.</summary>
    public bool IsWow64 { get; }

    public IReadOnlyList<WindowsThread> Threads { get; }

    public int PointerSize => Layout.PointerSize;

    /// <summary>"x64", "x86" or "x86 (WOW64, dumped by a 64-bit writer)".</summary>
    public string Description => IsWow64 ? "x86 (WOW64, dumped by a 64-bit writer)" : PointerSize == 8 ? "x64" : "x86";

    /// <summary>The process view of a minidump, or null for architectures DiagExt does not read (ARM).</summary>
    public static WindowsProcess? Open(MinidumpFile dump)
    {
        ushort? architecture = dump.SystemInfo?.ProcessorArchitecture;
        if (architecture is null && dump.Threads.Count > 0)
            architecture = dump.Threads[0].ContextSize >= 0x4D0 ? MinidumpSystemInfo.ArchitectureAmd64 : MinidumpSystemInfo.ArchitectureX86;
        return architecture switch
        {
            MinidumpSystemInfo.ArchitectureX86 => new WindowsProcess(dump, WindowsLayout.X86, false, ReadThreads(dump, WindowsLayout.X86, wow64: false)),
            MinidumpSystemInfo.ArchitectureAmd64 when Wow64.IsWow64Process(dump) => new WindowsProcess(dump, WindowsLayout.X86, true, ReadThreads(dump, WindowsLayout.X86, wow64: true)),
            MinidumpSystemInfo.ArchitectureAmd64 => new WindowsProcess(dump, WindowsLayout.X64, false, ReadThreads(dump, WindowsLayout.X64, wow64: false)),
            _ => null,
        };
    }

    public WindowsThread? FindThread(uint threadId) => Threads.FirstOrDefault(t => t.ThreadId == threadId);

    /// <summary>The PEB, from the first thread whose TEB the dump holds; 0 when none does.</summary>
    public ulong Peb()
    {
        foreach (WindowsThread thread in Threads)
            if (thread.TebCaptured && Dump.TryReadPointer(thread.Teb + (ulong)Layout.TebPeb, Layout.PointerSize == 8, out ulong peb) && peb != 0)
                return peb;
        return 0;
    }

    /// <summary>PEB.LoaderLock: the loader lock's address; null when that PEB field is not in the dump.</summary>
    public ulong? LoaderLockAddress(ulong peb) =>
        peb != 0 && Dump.TryReadPointer(peb + (ulong)Layout.PebLoaderLock, Layout.PointerSize == 8, out ulong address) ? address : null;

    private static List<WindowsThread> ReadThreads(MinidumpFile dump, WindowsLayout layout, bool wow64)
    {
        var threads = new List<WindowsThread>(dump.Threads.Count);
        for (int index = 0; index < dump.Threads.Count; index++)
            threads.Add(ReadThread(dump, layout, wow64, index, dump.Threads[index]));
        return threads;
    }

    private static WindowsThread ReadThread(MinidumpFile dump, WindowsLayout layout, bool wow64, int index, MinidumpThread thread)
    {
        byte[] context = dump.ReadThreadContext(thread) ?? [];
        ulong teb = wow64 ? Wow64.Teb32(dump, thread.Teb) ?? 0 : thread.Teb;
        bool tebCaptured = teb != 0 && dump.TryReadPointer(teb + (ulong)layout.TebSelf, layout.PointerSize == 8, out ulong self) && self == teb;
        ulong stackBase = 0, stackLimit = 0;
        if (tebCaptured)
        {
            dump.TryReadPointer(teb + (ulong)layout.TebStackBase, layout.PointerSize == 8, out stackBase);
            dump.TryReadPointer(teb + (ulong)layout.TebStackLimit, layout.PointerSize == 8, out stackLimit);
        }

        ThreadRegisters? registers = wow64
            ? Wow64.X86Registers(dump, thread.Teb, context, stackLimit, stackBase)
            : layout.PointerSize == 8 ? ThreadRegisters.FromX64Context(context, "thread CONTEXT") : ThreadRegisters.FromX86Context(context, "thread CONTEXT");

        // Without the TEB, the dump's stack descriptor bounds the stack (its end is the stack base).
        ulong descriptorEnd = thread.StackStart + thread.StackSize;
        ulong stackEnd = stackBase > stackLimit ? stackBase : wow64 ? 0 : descriptorEnd;
        return new WindowsThread(index, thread.ThreadId, teb, tebCaptured, registers, stackEnd);
    }
}
