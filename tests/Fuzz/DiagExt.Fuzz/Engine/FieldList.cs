using DiagExt.Core.Native;

namespace DiagExt.Fuzz.Engine;

/// <summary>Collects the fields of one input, dropping those outside it, with tolerant reads for the field finders.</summary>
public sealed class FieldList(int inputLength, int max = 4096)
{
    private readonly List<Field> _fields = [];

    public bool Full => _fields.Count >= max;

    public void Add(long offset, int size, FieldKind kind, ulong self = 0)
    {
        if (offset >= 0 && offset + size <= inputLength && !Full)
            _fields.Add(new Field((int)offset, size, kind, self));
    }

    public IReadOnlyList<Field> ToList() => _fields;

    public static uint U32(ReadOnlySpan<byte> data, long offset) => BinaryReads.TryU32(data, offset, out uint v) ? v : 0;

    public static ulong U64(ReadOnlySpan<byte> data, long offset) => BinaryReads.TryU64(data, offset, out ulong v) ? v : 0;

    public static ushort U16(ReadOnlySpan<byte> data, long offset) => BinaryReads.TryU16(data, offset, out ushort v) ? v : (ushort)0;
}
