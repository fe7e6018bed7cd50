using DiagExt.Core.Heap;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.WcfHang;

/// <summary>
/// Reads the fields of <see cref="WcfNames"/> from heap objects. The heap is hostile: a reference may point
/// anywhere, so every object read through a field is checked to be a valid object (of the expected type where
/// one is given), and a type ClrMD cannot read gives "absent", never an exception.
/// </summary>
internal static class WcfFields
{
    /// <summary>The object a reference field holds; null when absent, null, or not a valid object of <paramref name="expectedType"/>.</summary>
    public static ClrObject? Object(ClrObject obj, WcfNames.Field field, string? expectedType = null)
    {
        foreach (string name in field.Names)
        {
            try
            {
                if (!obj.TryReadObjectField(name, out ClrObject value))
                    continue;
                if (value.IsNull || !value.IsValid || value.Type is null)
                    return null;
                return expectedType is null || IsA(value, expectedType) ? value : null;
            }
            catch (Exception e) when (CorruptType.Is(e))
            {
                return null;
            }
        }
        return null;
    }

    /// <summary>The raw reference a field holds (0 when absent), without checking what it points to.</summary>
    public static ulong Reference(ClrObject obj, WcfNames.Field field)
    {
        foreach (string name in field.Names)
        {
            try
            {
                if (obj.TryReadObjectField(name, out ClrObject value))
                    return value.Address;
            }
            catch (Exception e) when (CorruptType.Is(e))
            {
                return 0;
            }
        }
        return 0;
    }

    /// <summary>A primitive or struct-of-primitive field (int, bool, long, TimeSpan as its ticks).</summary>
    public static T? Value<T>(ClrObject obj, WcfNames.Field field) where T : unmanaged
    {
        foreach (string name in field.Names)
        {
            try
            {
                if (obj.TryReadField(name, out T value))
                    return value;
            }
            catch (Exception e) when (CorruptType.Is(e))
            {
                return null;
            }
        }
        return null;
    }

    /// <summary>A string field, cut at <paramref name="maxLength"/>; null when absent or not a string.</summary>
    public static string? String(ClrObject obj, WcfNames.Field field, int maxLength)
    {
        if (Object(obj, field, "System.String") is not { } text)
            return null;
        try
        {
            return text.AsString(maxLength);
        }
        catch (Exception e) when (CorruptType.Is(e))
        {
            return null;
        }
    }

    /// <summary>Whether the object's type is <paramref name="typeName"/> or derives from it (bounded: a corrupt hierarchy can loop).</summary>
    public static bool IsA(ClrObject obj, string typeName)
    {
        try
        {
            return TypeHierarchy.SelfAndBases(obj.Type).Any(t => t.Name == typeName);
        }
        catch (Exception e) when (CorruptType.Is(e))
        {
            return false;
        }
    }
}
