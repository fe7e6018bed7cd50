using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>A task's state from m_stateFlags (dotnet/runtime Task.cs TaskStateFlags, the same bits in .NET Framework).</summary>
internal static class TaskState
{
    private const int RanToCompletion = 0x1000000;
    private const int Faulted = 0x200000;
    private const int Canceled = 0x400000;

    public static bool IsCompleted(ClrObject task) => FieldReader.Int(task, HangNames.StateFlags) is int flags && (flags & (RanToCompletion | Faulted | Canceled)) != 0;
}
