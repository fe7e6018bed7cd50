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

    /// <summary>Where the byte at target address <paramref name="address"/> is in the dump file.</summary>
    private static long FileOffsetOf(string path, ulong address)
    {
        using MinidumpFile dump = MinidumpFile.Open(path);
        MinidumpMemoryRange range = dump.MemoryRanges.Single(r => r.Contains(address));
        return range.FileOffset + (long)(address - range.Start);
    }
}
