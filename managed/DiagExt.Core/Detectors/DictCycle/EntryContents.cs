using System.Globalization;
using DiagExt.Core.Heap;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>One entry's key and value as a user recognises them (like !wdict): primitives and strings as values, other objects as type and address.</summary>
public sealed record EntryKey(int Index, string Key, string? Value);

/// <summary>
/// Reads the key and value of a few entries of a corrupt table through ClrMD (a handful per defect, never the whole
/// array). Strings are cut at a bounded length; every text here comes from the target and is escaped by the renderers.
/// </summary>
internal static class EntryContents
{
    private const int MaxTextLength = 80;

    public static IReadOnlyList<EntryKey> Read(ClrHeap heap, ulong entriesArray, IEnumerable<int> indices, int maxEntries)
    {
        var keys = new List<EntryKey>();
        try
        {
            ClrObject entries = heap.GetObject(entriesArray);
            if (!entries.IsValid || entries.Type is not { IsArray: true })
                return keys;
            ClrArray array = entries.AsArray();
            foreach (int index in indices.Distinct().Take(maxEntries))
            {
                if (index < 0 || index >= array.Length)
                    continue;
                ClrValueType entry = array.GetStructValue(index);
                ClrInstanceField? key = Field(entry, "key", "Key", "value", "Value");
                if (key is null)
                    continue;
                // A HashSet's element is its "value"; a Dictionary's value sits beside its key.
                ClrInstanceField? value = key.Name is "key" or "Key" ? Field(entry, "value", "Value") : null;
                keys.Add(new EntryKey(index, Render(entry, key), value is null ? null : Render(entry, value)));
            }
        }
        catch (Exception e) when (CorruptType.Is(e))
        {
            // The entry type or array is unreadable: the defects still stand, without their keys.
        }
        return keys;
    }

    private static ClrInstanceField? Field(ClrValueType entry, params string[] names) =>
        entry.Type?.Fields.FirstOrDefault(f => f.Name is { } n && Array.IndexOf(names, n) >= 0);

    private static string Render(ClrValueType entry, ClrInstanceField field)
    {
        if (field.IsObjectReference)
        {
            ClrObject obj = entry.ReadObjectField(field.Name!);
            if (obj.IsNull)
                return "null";
            if (obj.Type is { IsString: true })
                return Quote(obj.AsString(MaxTextLength + 1) ?? "");
            return $"{obj.Type?.Name ?? "?"} {(Address)obj.Address}";
        }
        CultureInfo c = CultureInfo.InvariantCulture;
        string name = field.Name!;
        return field.ElementType switch
        {
            ClrElementType.Boolean => entry.ReadField<bool>(name) ? "true" : "false",
            ClrElementType.Char => Quote(entry.ReadField<char>(name).ToString(), '\''),
            ClrElementType.Int8 => entry.ReadField<sbyte>(name).ToString(c),
            ClrElementType.UInt8 => entry.ReadField<byte>(name).ToString(c),
            ClrElementType.Int16 => entry.ReadField<short>(name).ToString(c),
            ClrElementType.UInt16 => entry.ReadField<ushort>(name).ToString(c),
            ClrElementType.Int32 => entry.ReadField<int>(name).ToString(c),
            ClrElementType.UInt32 => entry.ReadField<uint>(name).ToString(c),
            ClrElementType.Int64 => entry.ReadField<long>(name).ToString(c),
            ClrElementType.UInt64 => entry.ReadField<ulong>(name).ToString(c),
            ClrElementType.Float => entry.ReadField<float>(name).ToString("R", c),
            ClrElementType.Double => entry.ReadField<double>(name).ToString("R", c),
            _ => $"({field.Type?.Name ?? field.ElementType.ToString()})",
        };
    }

    private static string Quote(string text, char quote = '"') =>
        text.Length > MaxTextLength ? $"{quote}{text[..MaxTextLength]}...{quote}" : $"{quote}{text}{quote}";
}
