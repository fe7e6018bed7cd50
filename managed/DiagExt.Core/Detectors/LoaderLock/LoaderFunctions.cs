using DiagExt.Core.Native.Stacks;
using DiagExt.Core.Native.Windows;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>
/// The exported functions (resolvable without PDBs) that tell what a thread does around the loader lock.
/// Internal ones (LdrpDrainWorkQueue, LdrpLoadDllInternal, RtlpWaitOnCriticalSection) have no export: they show as
/// "ntdll+0x...", so nothing here depends on them.
/// </summary>
internal static class LoaderFunctions
{
    private static readonly Dictionary<string, LoaderActivity> Activities = new(StringComparer.Ordinal)
    {
        ["LdrShutdownThread"] = LoaderActivity.ExitingThread,
        ["RtlExitUserThread"] = LoaderActivity.ExitingThread,
        ["ExitThread"] = LoaderActivity.ExitingThread,
        ["FreeLibraryAndExitThread"] = LoaderActivity.ExitingThread,
        ["LdrShutdownProcess"] = LoaderActivity.ExitingProcess,
        ["RtlExitUserProcess"] = LoaderActivity.ExitingProcess,
        ["ExitProcess"] = LoaderActivity.ExitingProcess,
        ["LdrLoadDll"] = LoaderActivity.Loading,
        ["LoadLibraryA"] = LoaderActivity.Loading,
        ["LoadLibraryW"] = LoaderActivity.Loading,
        ["LoadLibraryExA"] = LoaderActivity.Loading,
        ["LoadLibraryExW"] = LoaderActivity.Loading,
        ["LoadPackagedLibrary"] = LoaderActivity.Loading,
        ["LdrUnloadDll"] = LoaderActivity.Unloading,
        ["FreeLibrary"] = LoaderActivity.Unloading,
        ["LdrGetProcedureAddress"] = LoaderActivity.ResolvingExport,
        ["LdrGetProcedureAddressEx"] = LoaderActivity.ResolvingExport,
        ["LdrGetProcedureAddressForCaller"] = LoaderActivity.ResolvingExport,
        ["GetProcAddress"] = LoaderActivity.ResolvingExport,
        ["LdrGetDllHandle"] = LoaderActivity.FindingModule,
        ["LdrGetDllHandleEx"] = LoaderActivity.FindingModule,
        ["LdrGetDllHandleByName"] = LoaderActivity.FindingModule,
        ["LdrGetDllHandleByMapping"] = LoaderActivity.FindingModule,
        ["GetModuleHandleA"] = LoaderActivity.FindingModule,
        ["GetModuleHandleW"] = LoaderActivity.FindingModule,
        ["GetModuleHandleExA"] = LoaderActivity.FindingModule,
        ["GetModuleHandleExW"] = LoaderActivity.FindingModule,
        ["LdrLockLoaderLock"] = LoaderActivity.LockingExplicitly,
        ["LdrInitializeThunk"] = LoaderActivity.StartingThread,
    };

    /// <summary>SwitchToThread is NtYieldExecution: a thread that calls it in a loop burns CPU without progress.</summary>
    private static readonly HashSet<string> Yields = new(StringComparer.Ordinal) { "NtYieldExecution", "ZwYieldExecution", "SwitchToThread" };

    /// <summary>The APIs a program calls to wait: the frame that says what the thread waits in.</summary>
    private static readonly HashSet<string> WaitApis = new(StringComparer.Ordinal)
    {
        "WaitForSingleObject", "WaitForSingleObjectEx", "WaitForMultipleObjects", "WaitForMultipleObjectsEx",
        "SignalObjectAndWait", "MsgWaitForMultipleObjects", "MsgWaitForMultipleObjectsEx", "Sleep", "SleepEx",
        "EnterCriticalSection", "RtlEnterCriticalSection", "SleepConditionVariableCS", "SleepConditionVariableSRW",
        "AcquireSRWLockExclusive", "AcquireSRWLockShared", "RtlAcquireSRWLockExclusive", "RtlAcquireSRWLockShared",
        "WaitOnAddress", "RtlWaitOnAddress", "GetQueuedCompletionStatus", "GetQueuedCompletionStatusEx",
    };

    /// <summary>Modules of the OS loader and C runtime: their frames say what happens, not whose code it is.</summary>
    private static readonly HashSet<string> SystemModules = new(StringComparer.OrdinalIgnoreCase)
    {
        "ntdll.dll", "kernel32.dll", "kernelbase.dll", "wow64.dll", "wow64win.dll", "wow64cpu.dll",
        "ucrtbase.dll", "msvcrt.dll", "vcruntime140.dll", "vcruntime140_1.dll",
    };

    public static LoaderActivity? ActivityOf(NativeFrame frame) =>
        frame.Symbol.Function is { } f && Activities.TryGetValue(f, out LoaderActivity a) ? a : null;

    public static bool IsYield(NativeFrame frame) => frame.Symbol.Function is { } f && Yields.Contains(f);

    public static bool IsWaitCall(NativeFrame frame) => WindowsWaitCalls.IsWaitCall(frame);

    public static bool IsWaitApi(NativeFrame frame) => frame.Symbol.Function is { } f && WaitApis.Contains(f);

    public static bool IsCriticalSectionEntry(NativeFrame frame) => WindowsWaitCalls.IsCriticalSectionEntry(frame);

    /// <summary>Whether the frame is in a module of its own (the program's or a third party's), not the OS loader or CRT.</summary>
    public static bool IsUserCode(NativeFrame frame) => frame.Symbol.ModuleFileName is { } m && !SystemModules.Contains(m);
}
