using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>Reads one field by name (the first name the type has, for names that differ between runtimes); null when absent or unreadable.</summary>
internal static class FieldReader
{
    public static int? Int(ClrObject obj, params string[] names) => Read(obj, names, (f, a) => f.Read<int>(a, interior: false));

    public static uint? UInt(ClrObject obj, params string[] names) => Read(obj, names, (f, a) => f.Read<uint>(a, interior: false));

    public static long? Long(ClrObject obj, params string[] names) => Read(obj, names, (f, a) => f.Read<long>(a, interior: false));

    public static ClrObject Object(ClrObject obj, params string[] names)
    {
        ClrInstanceField? field = Find(obj.Type, names);
        if (field is null || !field.IsObjectReference)
            return default;
        try
        {
            return field.ReadObject(obj.Address, interior: false);
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return default;
        }
    }

    public static ClrInstanceField? Find(ClrType? type, string[] names)
    {
        if (type is null)
            return null;
        foreach (string name in names)
            if (type.GetFieldByName(name) is { } field)
                return field;
        return null;
    }

    private static T? Read<T>(ClrObject obj, string[] names, Func<ClrInstanceField, ulong, T> read) where T : struct
    {
        ClrInstanceField? field = Find(obj.Type, names);
        if (field is null || obj.IsNull)
            return null;
        try
        {
            return read(field, obj.Address);
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return null;
        }
    }
}
