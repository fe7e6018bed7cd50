namespace DiagExt.Core.Native.Windows;

/// <summary>
/// The registers a stack walk needs, and where they came from: the instruction and stack pointers, plus for x64
/// the 16 general registers in unwind-code order (RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8-R15) for .pdata unwinding.
/// </summary>
internal sealed record ThreadRegisters(ulong InstructionPointer, ulong StackPointer, string Source, IReadOnlyList<ulong>? X64General = null)
{
    private const int X64Rax = 0x78;
    private const int X64Rsp = 0x98, X64Rip = 0xF8, X64MinSize = 0x100;
    private const int X86Eip = 0xB8, X86Esp = 0xC4, X86MinSize = 0xCC;

    /// <summary>WOW64_CONTEXT_i386 / CONTEXT_i386 in ContextFlags.</summary>
    private const uint ContextI386 = 0x00010000;

    /// <summary>Rip and Rsp of an AMD64 CONTEXT record.</summary>
    public static ThreadRegisters? FromX64Context(ReadOnlySpan<byte> context, string source)
    {
        if (context.Length < X64MinSize)
            return null;
        var general = new ulong[16];
        for (int i = 0; i < general.Length; i++)
            general[i] = BinaryReads.U64(context, X64Rax + i * 8); // CONTEXT keeps them in unwind-code order
        return new ThreadRegisters(BinaryReads.U64(context, X64Rip), BinaryReads.U64(context, X64Rsp), source, general);
    }

    /// <summary>Eip and Esp of an x86 CONTEXT (or WOW64_CONTEXT) record.</summary>
    public static ThreadRegisters? FromX86Context(ReadOnlySpan<byte> context, string source) =>
        context.Length < X86MinSize ? null : new ThreadRegisters(BinaryReads.U32(context, X86Eip), BinaryReads.U32(context, X86Esp), source);

    /// <summary>Whether an x86 context record says it is one (ContextFlags carries CONTEXT_i386).</summary>
    public static bool IsX86Context(ReadOnlySpan<byte> context) => context.Length >= X86MinSize && (BinaryReads.U32(context, 0) & ContextI386) != 0;
}
