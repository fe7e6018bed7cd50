using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;

/// <summary>
/// Reaches into a Dictionary/HashSet's private arrays with reflection to build one corruption class at a
/// time, exactly, so the tests know the bad indices in advance. Field names are those of .NET 5+.
/// </summary>
static class Tamper
{
    private const BindingFlags Private = BindingFlags.Instance | BindingFlags.NonPublic | BindingFlags.Public;

    public static int[] Buckets(object table) => (int[])Field(table, "_buckets").GetValue(table)!;

    public static void SetBuckets(object table, int[] buckets) => Field(table, "_buckets").SetValue(table, buckets);

    public static Array Entries(object table) => (Array)(FieldOrNull(table, "_entries") ?? Field(table, "_slots")).GetValue(table)!;

    public static int Int(object table, string field) => (int)Field(table, field).GetValue(table)!;

    public static void SetInt(object table, string field, int value) => Field(table, field).SetValue(table, value);

    public static int Next(object table, int index) => (int)EntryField(table, "next", "Next").GetValue(Entries(table).GetValue(index))!;

    public static void SetNext(object table, int index, int value) => SetEntry(table, index, ["next", "Next"], value);

    public static uint Hash(object table, int index)
    {
        object? value = EntryField(table, "hashCode", "HashCode").GetValue(Entries(table).GetValue(index));
        return value is int i ? unchecked((uint)i) : (uint)value!;
    }

    public static void SetHash(object table, int index, uint value)
    {
        FieldInfo f = EntryField(table, "hashCode", "HashCode");
        SetEntry(table, index, [f.Name], f.FieldType == typeof(int) ? unchecked((int)value) : value);
    }

    public static void SetKey(object table, int index, object key) => SetEntry(table, index, ["key", "Value", "value"], key);

    /// <summary>The bucket an entry's hash code maps to.</summary>
    public static int BucketOf(object table, int index) => (int)(Hash(table, index) % (uint)Buckets(table).Length);

    private static void SetEntry(object table, int index, string[] names, object value)
    {
        Array entries = Entries(table);
        object boxed = entries.GetValue(index)!;
        FieldInfo field = names.Select(n => boxed.GetType().GetField(n, Private)).First(f => f is not null)!;
        field.SetValue(boxed, value);
        entries.SetValue(boxed, index);
    }

    private static FieldInfo EntryField(object table, params string[] names)
    {
        Type entry = Entries(table).GetType().GetElementType()!;
        return names.Select(n => entry.GetField(n, Private)).First(f => f is not null)!;
    }

    private static FieldInfo Field(object table, string name) =>
        FieldOrNull(table, name) ?? throw new MissingFieldException(table.GetType().Name, name);

    private static FieldInfo? FieldOrNull(object table, string name)
    {
        for (Type? t = table.GetType(); t is not null; t = t.BaseType)
            if (t.GetField(name, Private) is { } f)
                return f;
        return null;
    }
}

/// <summary>Puts every string key in one bucket: chains become long and their order predictable (newest first).</summary>
sealed class Collide : IEqualityComparer<string>
{
    public bool Equals(string? x, string? y) => string.Equals(x, y);

    public int GetHashCode(string obj) => 7;
}
