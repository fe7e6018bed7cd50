using DiagExt.Core.Native.Minidump;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.LoaderLock;

/// <summary>Copies of real dumps with target memory overwritten: what a real process cannot be steered into.</summary>
internal static class PatchedDumps
{
    public static string CopyOf(string dump, string name)
    {
        string copy = Path.Combine(Repo.WorkDirectory, "dumps", name);
        File.Copy(dump, copy, overwrite: true);
        return copy;
    }

    /// <summary>A copy of <paramref name="dump"/> whose target memory at <paramref name="address"/> holds <paramref name="bytes"/>.</summary>
    public static string Patched(string dump, string name, ulong address, byte[] bytes)
    {
        string copy = CopyOf(dump, name);
        long offset = FileOffsetOf(copy, address);
        using var file = File.OpenWrite(copy);
        file.Position = offset;
        file.Write(bytes);
        return copy;
    }

    /// <summary>
    /// A copy of <paramref name="dump"/> whose module list lacks the module <paramref name="fileName"/> (the last entry
    /// moved into its place, the count lowered), or every module when it is null: what a writer walking the loader's
    /// list while it changes writes (Wine's, dumping the busy loader, wrote an empty one).
    /// </summary>
    public static string WithoutModule(string dump, string name, string? fileName)
    {
        const int ModuleListStream = 4, EntrySize = 108;
        string copy = CopyOf(dump, name);
        byte[] bytes = File.ReadAllBytes(copy);
        uint streams = BitConverter.ToUInt32(bytes, 8), directory = BitConverter.ToUInt32(bytes, 12);
        int list = Enumerable.Range(0, (int)streams).Select(i => (int)directory + 12 * i)
            .Where(d => BitConverter.ToUInt32(bytes, d) == ModuleListStream).Select(d => (int)BitConverter.ToUInt32(bytes, d + 8)).Single();
        int count = (int)BitConverter.ToUInt32(bytes, list);
        if (fileName is null)
            count = 1;
        else
        {
            int index = Enumerable.Range(0, count).Single(i => ModuleName(bytes, list + 4 + i * EntrySize).EndsWith("\\" + fileName, StringComparison.OrdinalIgnoreCase));
            Array.Copy(bytes, list + 4 + (count - 1) * EntrySize, bytes, list + 4 + index * EntrySize, EntrySize);
        }
        BitConverter.GetBytes((uint)(count - 1)).CopyTo(bytes, list);
        File.WriteAllBytes(copy, bytes);
        return copy;
    }

    private static string ModuleName(byte[] bytes, int entry)
    {
        int at = (int)BitConverter.ToUInt32(bytes, entry + 20);
        return System.Text.Encoding.Unicode.GetString(bytes, at + 4, (int)BitConverter.ToUInt32(bytes, at));
    }

    /// <summary>Where the byte at target address <paramref name="address"/> is in the dump file.</summary>
    private static long FileOffsetOf(string path, ulong address)
    {
        using MinidumpFile dump = MinidumpFile.Open(path);
        MinidumpMemoryRange range = dump.MemoryRanges.Single(r => r.Contains(address));
        return range.FileOffset + (long)(address - range.Start);
    }
}
