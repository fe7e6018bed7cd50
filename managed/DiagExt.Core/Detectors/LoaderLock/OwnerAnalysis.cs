using DiagExt.Core.Native.Stacks;
using DiagExt.Core.Native.Windows;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>The loader lock's owner: what it does (<see cref="State"/>), in which loader work, and whose code runs.</summary>
/// <param name="StateFrame">The frame that shows the state: SwitchToThread, or the wait API (WaitForSingleObject...).</param>
/// <param name="ActivityFrame">The exported loader function that tells the activity (LdrShutdownThread...).</param>
/// <param name="CodeFrame">The innermost frame in a module that is neither the OS loader nor the C runtime: whose code runs under the lock.</param>
/// <param name="IsLoadOwner">TEB.SameTebFlags.LoadOwner (Windows 10+): other loads wait for this thread to finish.</param>
/// <param name="WaitsFor">A critical section it waits to enter, found on its stack and plausible as a whole, with its owner.</param>
/// <param name="CalledFromOwnCode">The yield or wait was called by code of its own (a DllMain, a TLS callback) under the
/// lock, not by the loader itself: the loader's own waits (a Windows 10 load owner waiting for its mapping workers) end.</param>
/// <param name="WaitsOn">The handles its wait is on, when its registers tell (<see cref="WaitedHandles"/>); each with
/// what the dump's handle data says of it.</param>
internal sealed record OwnerAnalysis(
    WindowsThread Thread,
    IReadOnlyList<NativeFrame> Frames,
    OwnerState State,
    NativeFrame? StateFrame,
    LoaderActivity? Activity,
    NativeFrame? ActivityFrame,
    NativeFrame? CodeFrame,
    bool IsLoadOwner,
    CriticalSection? WaitsFor,
    bool CalledFromOwnCode,
    IReadOnlyList<WindowsHandle>? WaitsOn);
