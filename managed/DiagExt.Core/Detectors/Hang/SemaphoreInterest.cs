using DiagExt.Core.Heap;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// hang's share of the one heap pass: SemaphoreSlim objects, the only locks no thread's stack leads to (an async
/// waiter is a queued task node, not a thread). Decided per type; a process has few of them.
/// </summary>
internal sealed class SemaphoreInterest : IHeapInterest
{
    public bool Wants(ClrType type) => type.Name == HangNames.SemaphoreSlim;
}
