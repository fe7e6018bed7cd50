using DiagExt.Core.Native.Stacks;

namespace DiagExt.Core.Native.Windows;

/// <summary>
/// Exported ntdll/kernel32 functions (resolvable without PDBs) a blocked thread sits in: what loaderlock reads of the
/// loader lock's waiters and hang reads of any critical section's.
/// </summary>
internal static class WindowsWaitCalls
{
    /// <summary>System calls a thread sits in while it waits (the frame on top of a blocked thread).</summary>
    private static readonly HashSet<string> WaitCalls = new(StringComparer.Ordinal)
    {
        "NtWaitForSingleObject", "NtWaitForMultipleObjects", "NtWaitForMultipleObjects32", "NtWaitForAlertByThreadId",
        "NtWaitForKeyedEvent", "NtDelayExecution", "NtSignalAndWaitForSingleObject", "NtRemoveIoCompletion",
        "NtRemoveIoCompletionEx", "NtReplyWaitReceivePort", "NtReplyWaitReceivePortEx", "NtAlpcSendWaitReceivePort",
        "NtWaitForWorkViaWorkerFactory", "NtUserMsgWaitForMultipleObjectsEx", "NtUserGetMessage", "NtUserWaitMessage",
        "ZwWaitForSingleObject", "ZwWaitForMultipleObjects", "ZwWaitForMultipleObjects32", "ZwWaitForAlertByThreadId",
        "ZwWaitForKeyedEvent", "ZwDelayExecution", "ZwSignalAndWaitForSingleObject", "ZwRemoveIoCompletion",
        "ZwRemoveIoCompletionEx", "ZwReplyWaitReceivePort", "ZwReplyWaitReceivePortEx", "ZwAlpcSendWaitReceivePort",
        "ZwWaitForWorkViaWorkerFactory",
    };

    /// <summary>Entering a critical section: where a thread blocked on the lock itself waits (Windows 7 and older, Wine).</summary>
    private static readonly HashSet<string> CriticalSectionEntries = new(StringComparer.Ordinal)
    {
        "RtlEnterCriticalSection", "EnterCriticalSection", "RtlpWaitForCriticalSection",
    };

    public static bool IsWaitCall(NativeFrame frame) => frame.Symbol.Function is { } f && WaitCalls.Contains(f);

    public static bool IsCriticalSectionEntry(NativeFrame frame) => frame.Symbol.Function is { } f && CriticalSectionEntries.Contains(f);
}
