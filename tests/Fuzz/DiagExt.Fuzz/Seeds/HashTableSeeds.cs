using DiagExt.Core.Detectors.DictCycle;
using DiagExt.Core.Targets;
using DiagExt.Fuzz.Targets.HashTable;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Fuzz.Seeds;

/// <summary>Real Dictionary/HashSet images, healthy and corrupt, read from cores with DiagExt's own reader.</summary>
internal static class HashTableSeeds
{
    private const int PerCore = 150;

    public static IEnumerable<(string, byte[])> From(IEnumerable<string> cores, TextWriter log)
    {
        foreach (string path in cores)
        {
            List<(string, byte[])> images;
            try
            {
                images = Read(path);
            }
            catch (Exception e) when (e is Core.Errors.DiagExtException or InvalidOperationException)
            {
                log.WriteLine($"  {Path.GetFileName(path)}: no hash tables read ({e.Message})");
                continue;
            }
            foreach (var image in images)
                yield return image;
        }
    }

    private static List<(string, byte[])> Read(string path)
    {
        var result = new List<(string, byte[])>();
        using Target target = TargetOpener.OpenDump(path);
        if (target.Runtime is not { } runtime)
            return result;
        var shapes = new Dictionary<ulong, HashTableShape?>();
        foreach (ClrObject obj in runtime.Heap.EnumerateObjects())
        {
            if (result.Count >= PerCore)
                break;
            if (obj.Type is not { } type || !HashTableTypes.IsCollectionTypeName(type.Name))
                continue;
            if (!shapes.TryGetValue(type.MethodTable, out HashTableShape? shape))
            {
                ClrObject entries = HashTableShape.EntriesField(type) is { } field ? obj.ReadObjectField(field) : default;
                if (entries.IsNull || entries.Type is null)
                    continue;
                shapes[type.MethodTable] = shape = HashTableShape.TryCreate(type, entries.Type);
            }
            if (shape is null)
                continue;
            var (status, instance, _) = HashTableReader.Read(target, obj.Address, shape);
            if (status == HashTableReader.Status.Read && instance!.Image.EntriesLength <= 4096)
                result.Add(($"{Path.GetFileNameWithoutExtension(path)}-{obj.Address:x}", HashTableImageCodec.Encode(instance.Image, keysEqualByHash: result.Count % 2 == 0)));
        }
        return result;
    }
}
