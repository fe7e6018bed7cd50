using System.Runtime.InteropServices;

namespace Hangs;

/// <summary>
/// Windows (or Wine) only: a cycle across the managed/native boundary. "cs-holder" enters a Win32 critical section
/// (native memory, as a C++ library's would be) and then waits on a Monitor that "cs-caller" holds; "cs-caller",
/// holding that Monitor, calls EnterCriticalSection through a P/Invoke. SOS sees one Monitor wait and a thread
/// "running" native code.
/// </summary>
internal static class CriticalSectionDeadlock
{
    public static readonly object CacheLock = new();

    [DllImport("kernel32.dll")]
    private static extern void InitializeCriticalSection(IntPtr section);

    [DllImport("kernel32.dll")]
    private static extern void EnterCriticalSection(IntPtr section);

    public static void Run()
    {
        if (!OperatingSystem.IsWindows())
            throw new PlatformNotSupportedException("criticalsection needs Windows or Wine");
        // RTL_CRITICAL_SECTION is 40 bytes on x64, 24 on x86.
        IntPtr section = Marshal.AllocHGlobal(64);
        InitializeCriticalSection(section);
        string name = $"critical section 0x{section:x}";
        Console.WriteLine($"critical section at 0x{section:x}");
        using var holderHolds = new ManualResetEventSlim();
        using var callerHolds = new ManualResetEventSlim();
        Thread holder = Blocked.Start("cs-holder", () =>
        {
            EnterCriticalSection(section);
            holderHolds.Set();
            callerHolds.Wait();
            Blocked.Say("cs-holder", name, "CacheLock");
            lock (CacheLock)
                Console.WriteLine("unreachable");
        });
        Thread caller = Blocked.Start("cs-caller", () =>
        {
            lock (CacheLock)
            {
                callerHolds.Set();
                holderHolds.Wait();
                Blocked.Say("cs-caller", "CacheLock", name);
                EnterCriticalSection(section);
            }
        });
        Blocked.WaitFor(holder);
        // The caller waits inside EnterCriticalSection: running native code to the runtime, no WaitSleepJoin to see.
        Thread.Sleep(2000);
    }
}
