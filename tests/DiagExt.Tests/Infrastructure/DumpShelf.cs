namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// The dumps this test run has made, least recently used first, kept under <see cref="CapBytes"/> in all. A full
/// run makes some sixty cores of 100-200 MB; a CI machine with a small disk ran out (7.6 GB of dumps alone), so the
/// least recently used one is deleted before a new one is written, and remade if a later test asks for it again.
/// Fixtures run one at a time (scripts/test.sh), and no fixture holds more than a dozen dumps, so a dump in use is
/// never the oldest one.
/// </summary>
public static class DumpShelf
{
    /// <summary>Room for twenty of the largest cores: no fixture needs more at once.</summary>
    public const long CapBytes = 3L << 30;

    private static readonly LinkedList<string> Order = new();

    /// <summary>Says <paramref name="path"/> was used just now (made, or taken from a cache).</summary>
    public static void Used(string path)
    {
        lock (Order)
        {
            Order.Remove(path);
            Order.AddLast(path);
        }
    }

    /// <summary>Whether a cached dump is still on disk (false once evicted): the caller remakes it.</summary>
    public static bool StillThere(string path)
    {
        if (!File.Exists(path))
            return false;
        Used(path);
        return true;
    }

    /// <summary>Deletes the least recently used dumps until one more of <paramref name="expectedBytes"/> fits under the cap.</summary>
    public static void MakeRoom(long expectedBytes = 250L << 20)
    {
        lock (Order)
        {
            while (Order.First is { } oldest && Total() + expectedBytes > CapBytes)
            {
                Order.RemoveFirst();
                if (!File.Exists(oldest.Value))
                    continue;
                string line = $"dump shelf: deleting {Path.GetFileName(oldest.Value)} (least recently used) to stay under {CapBytes >> 30} GB";
                TestContext.Progress.WriteLine(line);
                // Also in a file: what was remade, and so what the cap costs in time, is read after a run.
                File.AppendAllText(Path.Combine(Repo.WorkDirectory, "dump-shelf.log"), $"{DateTime.UtcNow:HH:mm:ss} {line}\n");
                File.Delete(oldest.Value);
            }
        }
    }

    private static long Total() => Order.Where(File.Exists).Sum(p => new FileInfo(p).Length);
}
