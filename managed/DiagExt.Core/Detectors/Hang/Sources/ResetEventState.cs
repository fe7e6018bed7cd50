using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// A ManualResetEventSlim as the target records it: set or not, and how many threads wait (m_combinedState: bit 31
/// set, bits 0-18 waiters, in dotnet/runtime and referencesource alike). It has no owner: any code holding it may Set it.
/// </summary>
internal sealed record ResetEventState(bool IsSet, int Waiters)
{
    private const uint SetBit = 0x80000000;
    private const int WaitersMask = (1 << 19) - 1;

    public static ResetEventState? Read(ClrObject mres) =>
        FieldReader.UInt(mres, HangNames.ResetEventState) is uint state ? new ResetEventState((state & SetBit) != 0, (int)(state & WaitersMask)) : null;

    public string Detail => $"{(IsSet ? "set" : "not set")}, {Waiters} waiter{(Waiters == 1 ? "" : "s")}";
}
