namespace DiagExt.AflHarness;

/// <summary>
/// Instrumented code writes every branch into SharpFuzz's trace map, which only SharpFuzz's fork server sets up:
/// code run outside it (seed export) would write through a null pointer. This gives it a scratch map instead.
/// </summary>
public static unsafe class TraceBuffer
{
    private const int MapSize = 1 << 16;

    public static void InstallIfInstrumented()
    {
        if (SharpFuzz.Common.Trace.SharedMem == null)
            SharpFuzz.Common.Trace.SharedMem = (byte*)System.Runtime.InteropServices.NativeMemory.AllocZeroed(MapSize);
    }
}
