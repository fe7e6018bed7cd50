using System.IO.Compression;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Batch;

/// <summary>
/// A folder of mixed real dumps, as a user collects them: createdump cores of the DictCycle sample (a
/// corrupt Dictionary; a corrupt HashSet gzipped), of the Healthy sample, the team's real Windows dumps, a
/// zip holding one of them again plus a truncated Windows dump and a readme, a truncated core, a text file
/// named like a dump, a text file that is not, and an identical copy of a dump under another name.
/// Built once per test run. On a clone without the shared dumps the Windows dumps and the zip are left out:
/// the rest is made by the suite and still tested.
/// </summary>
public static class BatchFolder
{
    private static readonly Lazy<string> Folder = new(Build, LazyThreadSafetyMode.ExecutionAndPublication);

    public static string Path => Folder.Value;

    public static string[] WindowsDumps => Repo.HasSharedDumps
        ? Directory.GetFiles(Repo.SharedWindowsDumps, "*.dmp").Select(System.IO.Path.GetFileName).OfType<string>().Order(StringComparer.Ordinal).ToArray()
        : [];

    /// <summary>What the batch counts as dumps: zip members too.</summary>
    public static int DumpCount => 6 + (Repo.HasSharedDumps ? WindowsDumps.Length + 2 : 0);

    /// <summary>The copy of the dictionary core, and with the Windows dumps the zip's copy of one of them.</summary>
    public static int Duplicates => Repo.HasSharedDumps ? 2 : 1;

    private static string Build()
    {
        string dictionary = DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core");
        string hashSet = DumpMaker.DumpOfSample("DictCycle", "dictcycle-hashset.core", "--hashset");
        string healthy = DumpMaker.DumpOfSample("Healthy", "healthy.core");

        string folder = System.IO.Path.Combine(Repo.WorkDirectory, "batch-folder");
        if (Directory.Exists(folder))
            Directory.Delete(folder, recursive: true);
        Directory.CreateDirectory(folder);

        DumpLink.Place(dictionary, In(folder, "dictionary.core"));
        DumpLink.Place(dictionary, In(folder, "copy-of-dictionary.core"));
        DumpLink.Place(healthy, In(folder, "healthy.core"));
        Gzip(hashSet, In(folder, "hashset.core.gz"));
        CopyPrefix(dictionary, In(folder, "truncated.core"), 50_000_000);
        File.WriteAllText(In(folder, "notes.txt"), "dumps collected on the night of the outage\n");
        File.WriteAllText(In(folder, "bogus.dmp"), "this was meant to be a dump, but procdump failed\n");
        if (Repo.HasSharedDumps)
            AddWindowsDumps(folder);
        return folder;
    }

    private static void AddWindowsDumps(string folder)
    {
        Directory.CreateDirectory(System.IO.Path.Combine(folder, "windows"));
        foreach (string name in WindowsDumps)
            DumpLink.Place(System.IO.Path.Combine(Repo.SharedWindowsDumps, name), In(folder, "windows/" + name));

        using (ZipArchive zip = ZipFile.Open(In(folder, "windows.zip"), ZipArchiveMode.Create))
        {
            zip.CreateEntryFromFile(System.IO.Path.Combine(Repo.SharedWindowsDumps, "win11-x64-crashpad-tiny-exe.dmp"), "crash/win11-x64-crashpad-tiny-exe.dmp");
            using (Stream entry = zip.CreateEntry("crash/truncated-win10.dmp").Open())
            using (FileStream source = File.OpenRead(System.IO.Path.Combine(Repo.SharedWindowsDumps, "win10-x64-invalid-parameter.dmp")))
                CopyBytes(source, entry, 20_000);
            using (var readme = new StreamWriter(zip.CreateEntry("readme.txt").Open()))
                readme.WriteLine("crash dumps from the field");
        }
    }

    private static string In(string folder, string name) => System.IO.Path.Combine(folder, name);

    private static void Gzip(string source, string target)
    {
        using FileStream input = File.OpenRead(source);
        using var output = new GZipStream(File.Create(target), CompressionLevel.Fastest);
        input.CopyTo(output);
    }

    private static void CopyPrefix(string source, string target, int bytes)
    {
        using FileStream input = File.OpenRead(source);
        using FileStream output = File.Create(target);
        CopyBytes(input, output, bytes);
    }

    private static void CopyBytes(Stream input, Stream output, int bytes)
    {
        byte[] buffer = new byte[bytes];
        input.ReadExactly(buffer);
        output.Write(buffer);
    }
}
