using System.Buffers.Binary;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Heap;

/// <summary>
/// Reads the stack traces the runtime keeps in exception objects (Exception._stackTrace: a header, then one element of
/// four pointers per frame: IP, SP, MethodDesc, flags), resolving each MethodDesc once. ClrMD's
/// <see cref="ClrException.EnumerateExceptionStackTrace"/> asks the DAC twice per frame; a process hammering a corrupt
/// table leaves tens of thousands of exceptions thrown from a few sites, so nearly every frame repeats a method already
/// seen (bench/RESULTS.md: 20,000 exceptions took seconds). The frames are the ones ClrMD yields, in its order: the
/// same header checks, the same cap on the count, a frame dropped when its method is unknown.
/// One reader per analysis (the cache is that runtime's); not thread-safe.
/// </summary>
public sealed class ExceptionStackTraces(Target target)
{
    private const string StackTraceField = "_stackTrace";

    private readonly Dictionary<ulong, ManagedFrame?> _methods = [];
    private readonly Dictionary<ulong, int> _fieldOffsets = [];

    /// <summary>Distinct methods resolved so far (each one DAC lookup).</summary>
    public int MethodsResolved => _methods.Count;

    /// <summary>The first <paramref name="maxFrames"/> frames of <paramref name="exception"/>'s stack trace whose method the runtime knows.</summary>
    public IReadOnlyList<ManagedFrame> Read(ClrException exception, int maxFrames)
    {
        if (StackTraceOffset(exception.Type) is null)
            return ClrMdFrames(exception, maxFrames); // no metadata for the field: ClrMD's guess at its offset
        byte[] elements = Elements(exception, maxFrames);
        int pointerSize = target.PointerSize, elementSize = 4 * pointerSize;
        var frames = new List<ManagedFrame>(elements.Length / elementSize);
        for (int at = 0; at < elements.Length; at += elementSize)
        {
            ReadOnlySpan<byte> element = elements.AsSpan(at, elementSize);
            if (Method(Pointer(element, 2, pointerSize)) is { } method)
                frames.Add(method with { InstructionPointer = Pointer(element, 0, pointerSize), StackPointer = Pointer(element, 1, pointerSize) });
        }
        return frames;
    }

    /// <summary>
    /// The MethodDescs of the frames <see cref="Read"/> would look at, as a key: two exceptions with equal keys have
    /// the same methods in the same order (their IPs may differ). Null when the trace is not read directly.
    /// </summary>
    public string? MethodsKey(ClrException exception, int maxFrames)
    {
        if (StackTraceOffset(exception.Type) is null)
            return null;
        byte[] elements = Elements(exception, maxFrames);
        int pointerSize = target.PointerSize, elementSize = 4 * pointerSize;
        var key = new char[elements.Length / elementSize * pointerSize];
        for (int at = 0, k = 0; at < elements.Length; at += elementSize, k += pointerSize)
            for (int b = 0; b < pointerSize; b++)
                key[k + b] = (char)elements[at + 2 * pointerSize + b];
        return new string(key);
    }

    /// <summary>The raw elements (IP, SP, MethodDesc, flags) of the first frames, checked as ClrMD checks them; empty when there are none.</summary>
    private byte[] Elements(ClrException exception, int maxFrames)
    {
        int offset = StackTraceOffset(exception.Type)!.Value;
        int pointerSize = target.PointerSize;
        Span<byte> word = stackalloc byte[8];
        if (target.ReadMemory(exception.Address + (ulong)offset, word[..pointerSize]) != pointerSize)
            return [];
        ClrObject trace = exception.Type.Heap.GetObject(pointerSize == 8 ? BinaryPrimitives.ReadUInt64LittleEndian(word) : BinaryPrimitives.ReadUInt32LittleEndian(word));
        if (trace.IsNull)
            return [];
        int length = trace.AsArray().Length;
        int headerSize = 2 * pointerSize, elementSize = 4 * pointerSize;
        if (length < headerSize)
            return [];
        ulong header = trace.Address + (ulong)headerSize;
        if (target.ReadMemory(header, word[..4]) != 4)
            return [];
        int count = Math.Min(BinaryPrimitives.ReadInt32LittleEndian(word), (length - headerSize) / elementSize);
        if (count <= 0)
            return [];
        // One read for the frames wanted; a part the dump lacks reads as zeros, as ClrMD's pointer reads do.
        var elements = new byte[Math.Min(count, maxFrames) * elementSize];
        target.ReadMemory(header + (ulong)headerSize, elements);
        return elements;
    }

    private static ulong Pointer(ReadOnlySpan<byte> element, int index, int pointerSize) =>
        pointerSize == 8 ? BinaryPrimitives.ReadUInt64LittleEndian(element[(index * 8)..]) : BinaryPrimitives.ReadUInt32LittleEndian(element[(index * 4)..]);

    /// <summary>The frame's names, asked of the runtime once per MethodDesc (null: the runtime knows no such method).</summary>
    private ManagedFrame? Method(ulong methodDesc)
    {
        if (methodDesc == 0)
            return null;
        if (!_methods.TryGetValue(methodDesc, out ManagedFrame? frame))
        {
            frame = target.Runtime?.GetMethodByHandle(methodDesc) is { } m ? new ManagedFrame(0, 0, m.Type?.Name, m.Name, m.Signature ?? m.Name ?? "?") : null;
            _methods[methodDesc] = frame;
        }
        return frame;
    }

    /// <summary>Where the object's _stackTrace reference lies from its start (MethodTable pointer included), per exception type.</summary>
    private int? StackTraceOffset(ClrType type)
    {
        if (!_fieldOffsets.TryGetValue(type.MethodTable, out int offset))
        {
            ClrInstanceField? field = type.Fields.FirstOrDefault(f => f.Name == StackTraceField);
            offset = field is { Offset: >= 0 } ? field.Offset + target.PointerSize : -1;
            _fieldOffsets[type.MethodTable] = offset;
        }
        return offset >= 0 ? offset : null;
    }

    /// <summary>ClrMD's own enumerator (two DAC lookups per frame); bench/Census compares the two.</summary>
    internal static IReadOnlyList<ManagedFrame> ClrMdFrames(ClrException exception, int maxFrames) =>
        exception.EnumerateExceptionStackTrace().Take(maxFrames)
            .Select(f => f.Method is { } m ? new ManagedFrame(f.InstructionPointer, f.StackPointer, m.Type?.Name, m.Name, m.Signature ?? m.Name ?? "?") : null)
            .OfType<ManagedFrame>().ToList();
}
