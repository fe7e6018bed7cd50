using DiagExt.Core.Native.Minidump;
using DiagExt.Fuzz.Targets.Dml;

namespace DiagExt.Fuzz.Seeds;

/// <summary>Strings real targets put in reports (module names, paths), in groups of a finding's twelve strings.</summary>
internal static class DmlSeeds
{
    public static IEnumerable<(string, byte[])> From(SeedSources sources)
    {
        var strings = new List<string>();
        foreach (string path in sources.Minidumps)
        {
            using MinidumpFile dump = MinidumpFile.Open(path);
            strings.AddRange(dump.Modules.Select(m => m.Name));
        }
        strings.AddRange(sources.Assemblies.Select(Path.GetFileName)!);
        for (int i = 0; i * 12 < strings.Count && i < 64; i++)
            yield return ($"strings-{i}", HostileText.Join([.. strings.Skip(i * 12).Take(12)]));
    }
}
