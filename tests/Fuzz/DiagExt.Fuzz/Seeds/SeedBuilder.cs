using DiagExt.Fuzz.Engine;

namespace DiagExt.Fuzz.Seeds;

/// <summary>
/// Writes the seed inputs of every target under artifacts/fuzz/seeds/&lt;target&gt; (never committed): whole dumps,
/// module images cut from them, heads of cores, assemblies, hash tables read from cores, strings from all of them.
/// </summary>
public static class SeedBuilder
{
    public static void WriteAll(string root, TextWriter log) => WriteAll(root, SeedSources.Discover(), log);

    public static void WriteAll(string root, SeedSources sources, TextWriter log)
    {
        log.WriteLine($"sources: {sources.Minidumps.Count} minidumps, {sources.Cores.Count} cores, {sources.Assemblies.Count} assemblies");
        Write(root, "minidump", sources.Minidumps.Select(f => (Path.GetFileName(f), File.ReadAllBytes(f))), log);
        Write(root, "pe", PeSeeds.From(sources.Minidumps), log);
        Write(root, "elf", ElfSeeds.From(sources.Cores), log);
        Write(root, "il", sources.Assemblies.Select(f => (Path.GetFileName(Path.GetDirectoryName(f)!) + "-" + Path.GetFileName(f), File.ReadAllBytes(f))), log);
        Write(root, "hashtable", HashTableSeeds.From(sources.Cores, log), log);
        Write(root, "dml", DmlSeeds.From(sources), log);
        Write(root, "wcf", new Targets.Wcf.WcfTarget().BuiltInSeeds().Select(s => ("wcfhang-apm-objects", s)), log);
        Write(root, "hang", new Targets.Hang.HangTarget().BuiltInSeeds().Select((s, i) => ($"hang-core{s[0]}-objects", s)), log);
    }

    private static void Write(string root, string target, IEnumerable<(string Name, byte[] Data)> seeds, TextWriter log)
    {
        string dir = Path.Combine(root, target);
        Directory.CreateDirectory(dir);
        int count = 0;
        long bytes = 0;
        foreach (var (name, data) in seeds)
        {
            string stem = Path.Combine(dir, string.Concat(name.Select(c => char.IsLetterOrDigit(c) || c is '.' or '-' or '_' ? c : '_')));
            InputFiles.Write(stem, data);
            count++;
            bytes += data.Length;
        }
        log.WriteLine($"{target,-10} {count,5} seeds, {bytes / 1024.0 / 1024:0.0} MB in {dir}");
    }
}
