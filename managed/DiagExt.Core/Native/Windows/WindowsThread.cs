namespace DiagExt.Core.Native.Windows;

/// <summary>
/// One thread of a Windows dump as the process's own code sees it: for a WOW64 process that is the 32-bit TEB,
/// the 32-bit registers and the 32-bit stack.
/// </summary>
/// <param name="Index">Its position in the dump's thread list: WinDbg's thread number (~N).</param>
/// <param name="Teb">The TEB of the process's bitness (the 32-bit TEB under WOW64), or 0 when unknown.</param>
/// <param name="TebCaptured">Whether the dump holds that TEB's memory.</param>
/// <param name="StackEnd">The stack's upper end (TEB StackBase, else the dump's stack descriptor), 0 when unknown.</param>
internal sealed record WindowsThread(int Index, uint ThreadId, ulong Teb, bool TebCaptured, ThreadRegisters? Registers, ulong StackEnd);
