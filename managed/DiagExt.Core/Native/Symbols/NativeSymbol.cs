namespace DiagExt.Core.Native.Symbols;

/// <summary>
/// A code address named without a PDB: "ntdll!LdrLoadDll+0x3b" when it lies inside an exported function,
/// "ntdll+0x35c4a" when it lies in the module but not provably inside an export, "0x7ff6..." outside every module.
/// </summary>
internal sealed record NativeSymbol(ulong Address, string? Module, string? ModuleFileName, string? Function, ulong Offset)
{
    public static NativeSymbol Unknown(ulong address) => new(address, null, null, null, address);

    public bool IsNamed => Function is not null;

    public override string ToString() => (Module, Function) switch
    {
        (null, _) => $"{(Address)Address}",
        (_, null) => $"{Module}+0x{Offset:x}",
        _ when Offset == 0 => $"{Module}!{Function}",
        _ => $"{Module}!{Function}+0x{Offset:x}",
    };

    /// <summary>Whether this is the export <paramref name="function"/> (any module, case-sensitive, as exported).</summary>
    public bool Is(string function) => string.Equals(Function, function, StringComparison.Ordinal);
}
