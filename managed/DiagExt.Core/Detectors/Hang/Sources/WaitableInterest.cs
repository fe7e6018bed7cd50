using DiagExt.Core.Heap;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// hang's share of the one heap pass: the objects no thread's stack leads to. SemaphoreSlims (an async waiter is a
/// queued task node, not a thread) and TaskCompletionSources (a promise task does not point back at its source, and
/// the source is what code completes it through), and async socket operations (a request awaiting a peer with no
/// thread blocked on it). Decided per type; a process has few of them (two socket operations per socket that went async).
/// </summary>
internal sealed class WaitableInterest : IHeapInterest
{
    public bool Wants(ClrType type) => type.Name is { } name && (name == HangNames.SemaphoreSlim || IsPromiseSource(name) || SocketOperation.Wants(name));

    public static bool IsPromiseSource(string? typeName) =>
        typeName is not null && typeName.StartsWith(HangNames.TaskCompletionSource, StringComparison.Ordinal)
        && (typeName.Length == HangNames.TaskCompletionSource.Length || typeName[HangNames.TaskCompletionSource.Length] is '<' or '`');
}
