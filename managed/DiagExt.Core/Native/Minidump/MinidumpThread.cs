namespace DiagExt.Core.Native.Minidump;

/// <summary>One MINIDUMP_THREAD (48 bytes): id, TEB address, stack range and where its CONTEXT is in the file.</summary>
internal sealed record MinidumpThread(
    uint ThreadId,
    ulong Teb,
    ulong StackStart,
    uint StackSize,
    uint StackRva,
    uint ContextSize,
    uint ContextRva)
{
    public const int Size = 48;
}
