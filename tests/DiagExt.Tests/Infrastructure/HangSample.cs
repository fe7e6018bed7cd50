using System.Text.RegularExpressions;

namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// samples/Hangs in one mode, dumped with createdump. Every mode is run and dumped twice (two processes), since a hang
/// reproduced once can be luck: each test checks both. The ground truth is what the sample printed before the dump:
/// "thread NAME managed ID holds X waits Y" per thread it blocked.
/// </summary>
public static class HangSample
{
    public const int Runs = 2;

    /// <summary>A thread the sample blocked, as it said.</summary>
    public sealed record Blocked(string Name, int ManagedId, string Holds, string Waits);

    public sealed record Dump(string Path, string Output)
    {
        public IReadOnlyList<Blocked> Threads => Regex.Matches(Output, @"^thread (\S+) managed (\d+) holds (\S+) waits (\S+)$", RegexOptions.Multiline)
            .Select(m => new Blocked(m.Groups[1].Value, int.Parse(m.Groups[2].Value), m.Groups[3].Value, m.Groups[4].Value)).ToList();

        public Blocked Thread(string name) => Threads.Single(t => t.Name == name);
    }

    /// <summary>The dump of run <paramref name="run"/> (1 or 2) of <paramref name="mode"/>, made once per test run.</summary>
    public static Dump Of(string mode, int run)
    {
        DumpMaker.SampleDump dump = DumpMaker.DumpOfSampleWithOutput("Hangs", null, $"hang-{mode}-{run}.core", mode);
        return new Dump(dump.Path, dump.Output);
    }

    public static IEnumerable<int> AllRuns => Enumerable.Range(1, Runs);
}
