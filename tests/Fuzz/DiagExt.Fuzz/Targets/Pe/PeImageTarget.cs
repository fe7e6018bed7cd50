using DiagExt.Core;
using System.Text;
using DiagExt.Core.Native;
using DiagExt.Core.Native.Minidump;
using DiagExt.Core.Native.Pe;
using DiagExt.Core.Native.Stacks;
using DiagExt.Core.Native.Symbols;
using DiagExt.Core.Native.Windows;
using DiagExt.Core.Targets;
using DiagExt.Fuzz.Checks;
using DiagExt.Fuzz.Engine;

namespace DiagExt.Fuzz.Targets.Pe;

/// <summary>
/// One PE image as a module of a dump holds it (input: 8-byte base address, then the mapped image): headers,
/// sections, the export table, x64 .pdata with chained and indirect entries, naming addresses, and stack walks
/// whose stack is the image itself (every word a pointer into it), through the x64 unwinder or the scanner.
/// </summary>
public sealed class PeImageTarget : IFuzzTarget
{
    private const ulong DefaultBase = 0x180000000;
    private static readonly Limits Limits = Limits.Default;

    public string Name => "pe";

    public string Covers => "Native/Pe (PeHeaders, PeExportReader, PeFunctionTable), Native/Symbols (ModuleSymbols, NativeSymbolizer), Native/Stacks (X64Unwinder, NativeStackWalker, NativeStackScanner, CallSite)";

    public IReadOnlyList<byte[]> Tokens { get; } = [Encoding.ASCII.GetBytes("MZ"), Encoding.ASCII.GetBytes("PE\0\0"), [0x0B, 0x02], [0x64, 0x86], [0x4C, 0x01], [0xE8], [0xFF, 0x15]];

    public IEnumerable<byte[]> BuiltInSeeds() => WineImages.Small().Select(image => PeMapper.Input(DefaultBase, image));

    public IReadOnlyList<Field> Fields(ReadOnlySpan<byte> input)
    {
        var fields = new FieldList(input.Length);
        fields.Add(0, 8, FieldKind.Pointer, DefaultBase);
        int length = input.Length;
        PeFieldFinder.Add(input, rva => 8L + rva < length ? 8L + rva : -1, fields);
        return fields.ToList();
    }

    public bool IsDocumentedRejection(Exception e) => false; // a broken image gives fewer exports and frames, never an exception

    public string Execute(ReadOnlyMemory<byte> input)
    {
        ulong imageBase = input.Length >= 8 ? BitConverter.ToUInt64(input.Span) : DefaultBase;
        ReadOnlyMemory<byte> image = input.Length >= 8 ? input[8..] : input;
        var memory = new RangeMemory(imageBase, image);
        var signature = new Signature();
        PeHeaders? headers = PeHeaders.Read(memory, imageBase);
        signature.Add("headers", headers is not null);
        if (headers is null)
            return signature.ToString();
        signature.Add("machine", headers.Machine switch { PeHeaders.MachineAmd64 => "x64", PeHeaders.MachineI386 => "x86", _ => "other" }).Add("plus", headers.IsPe32Plus).Add("sections", headers.Sections.Count);

        IReadOnlyList<PeExport> exports = PeExportReader.Read(memory, imageBase, headers, Limits);
        CheckExports(exports, headers);
        PeFunctionTable? table = PeFunctionTable.Read(memory, imageBase, headers, Limits);
        signature.Add("exports", exports.Count).Add("functions", table?.Count);

        var symbols = new NativeSymbolizer(memory, [new MinidumpModule(imageBase, headers.SizeOfImage, 0, "fuzz.dll", null)], Limits);
        int named = 0;
        foreach (PeExport e in Sample(exports, 48))
            foreach (ulong address in new[] { imageBase + e.Rva, imageBase + e.Rva + 1, imageBase + e.Rva - 1 })
                named += Check(symbols.Resolve(address)).IsNamed ? 1 : 0;
        signature.Add("named", named > 0).Add("export", symbols.ExportAddress("fuzz.dll", exports.FirstOrDefault().Name ?? "") is not null);

        int frames = 0, pointerSize = headers.Machine == PeHeaders.MachineAmd64 ? 8 : 4;
        foreach (ulong start in WalkStarts(exports, headers, imageBase))
        {
            var registers = new ulong[16];
            for (int r = 0; r < 16; r++)
                registers[r] = imageBase + (ulong)(r * 0x40); // every register, RSP included, points into the image
            var thread = new ThreadRegisters(start, registers[4], "fuzz", pointerSize == 8 ? registers : null);
            IReadOnlyList<NativeFrame> walked = NativeStackWalker.Walk(memory, symbols, thread, imageBase + (ulong)image.Length, pointerSize, Limits);
            if (walked.Count > Limits.MaxFramesPerThread + 1)
                throw new PropertyViolation($"stack walk over the frame limit: {walked.Count} frames, limit {Limits.MaxFramesPerThread}");
            foreach (NativeFrame frame in walked)
                Check(frame.Symbol);
            frames += walked.Count;
        }
        return signature.Add("frames", frames).ToString();
    }

    private static IEnumerable<ulong> WalkStarts(IReadOnlyList<PeExport> exports, PeHeaders headers, ulong imageBase)
    {
        foreach (PeExport e in Sample(exports, 4))
            yield return imageBase + e.Rva + 4;
        foreach (PeSection s in headers.Sections.Where(s => s.IsExecutable).Take(2))
            yield return imageBase + s.VirtualAddress + 0x10;
    }

    private static IEnumerable<T> Sample<T>(IReadOnlyList<T> items, int count)
    {
        int step = Math.Max(1, items.Count / count);
        for (int i = 0; i < items.Count; i += step)
            yield return items[i];
    }

    private static void CheckExports(IReadOnlyList<PeExport> exports, PeHeaders headers)
    {
        for (int i = 0; i < exports.Count; i++)
        {
            PeExport e = exports[i];
            if (e.Rva >= headers.SizeOfImage || headers.Export.Contains(e.Rva) || e.Rva == 0)
                throw new PropertyViolation($"export RVA outside the image or inside the export directory: {e.Name} 0x{e.Rva:x}");
            if (i > 0 && exports[i - 1].Rva > e.Rva)
                throw new PropertyViolation("exports are not sorted by RVA");
            if (e.Name.Length == 0 || e.Name.Length > 256 || e.Name.Any(c => c is < '!' or > '~'))
                throw new PropertyViolation($"export name is not printable ASCII: {e.Name}");
        }
    }

    private static NativeSymbol Check(NativeSymbol symbol)
    {
        string text = symbol.ToString();
        // Export names may hold '<' or '&' (any printable ASCII): renderers escape them; control characters never get this far.
        if (UnsafeCharacters.FirstUnsafe(text) is not null)
            throw new PropertyViolation($"a frame name holds control characters: {text}");
        return symbol;
    }
}
