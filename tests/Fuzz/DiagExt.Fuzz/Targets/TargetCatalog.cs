using DiagExt.Fuzz.Engine;
using DiagExt.Fuzz.Targets.Minidump;

namespace DiagExt.Fuzz.Targets;

/// <summary>Every fuzz target, by name.</summary>
public static class TargetCatalog
{
    public static IReadOnlyList<IFuzzTarget> All { get; } =
    [
        new MinidumpTarget(),
        new Pe.PeImageTarget(),
        new Elf.ElfTarget(),
        new Il.IlTarget(),
        new HashTable.HashTableTarget(),
        new Dml.DmlTarget(),
        new Wcf.WcfTarget(),
        new Hang.HangTarget(),
    ];

    public static IFuzzTarget Find(string name) =>
        All.FirstOrDefault(t => t.Name == name) ?? throw new ArgumentException($"unknown target '{name}' (targets: {string.Join(", ", All.Select(t => t.Name))})");
}
