using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>A lock's address in a report: a managed lock links to !DumpObj, a native one (a critical section, a pthread mutex) to its memory.</summary>
internal static class LockLinks
{
    public static MarkupBuilder Lock(this MarkupBuilder line, LockState state) =>
        state.Kind == LockKindName.NativeMutex ? line.Native(state.Address) : line.Object(state.Address);
}
