using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Heap;

/// <summary>
/// Names who holds an object through static fields: "Program._dict", or one level further,
/// "Cache.Instance._map". Run only for the few objects a detector reports, never per heap object.
/// </summary>
public static class StaticReferenceFinder
{
    private const int MaxStaticFields = 500_000;

    public static IReadOnlyDictionary<ulong, string> FindPaths(ClrRuntime runtime, IReadOnlySet<ulong> wanted, CancellationToken cancellation)
    {
        var found = new Dictionary<ulong, string>();
        if (wanted.Count == 0)
            return found;
        ClrHeap heap = runtime.Heap;
        ClrAppDomain[] domains = [.. runtime.AppDomains];
        int visited = 0;

        foreach (ClrModule module in runtime.EnumerateModules())
        {
            foreach ((ulong methodTable, int _) in module.EnumerateTypeDefToMethodTableMap())
            {
                cancellation.ThrowIfCancellationRequested();
                if (methodTable == 0 || runtime.GetTypeByMethodTable(methodTable) is not { } type)
                    continue;
                foreach (ClrStaticField field in type.StaticFields)
                {
                    if (!field.IsObjectReference || ++visited > MaxStaticFields)
                        continue;
                    foreach (ClrAppDomain domain in domains)
                    {
                        ClrObject value = SafeRead(field, domain);
                        if (value.IsNull)
                            continue;
                        string path = $"{type.Name}.{field.Name}";
                        if (wanted.Contains(value.Address))
                            found.TryAdd(value.Address, path);
                        else
                            LookOneLevelDown(heap, value, path, wanted, found);
                    }
                }
                if (found.Count == wanted.Count)
                    return found;
            }
        }
        return found;
    }

    private static void LookOneLevelDown(ClrHeap heap, ClrObject holder, string path, IReadOnlySet<ulong> wanted, Dictionary<ulong, string> found)
    {
        ClrType? type = holder.Type;
        if (type is null || type.IsArray || type.IsString)
            return;
        foreach (ClrInstanceField field in type.Fields)
        {
            if (!field.IsObjectReference)
                continue;
            ulong child = field.ReadObject(holder.Address, interior: false).Address;
            if (child != 0 && wanted.Contains(child))
                found.TryAdd(child, $"{path}.{field.Name}");
        }
    }

    private static ClrObject SafeRead(ClrStaticField field, ClrAppDomain domain)
    {
        try
        {
            return field.IsInitialized(domain) ? field.ReadObject(domain) : default;
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or IOException)
        {
            return default;
        }
    }
}
