using System.Text.RegularExpressions;

namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// One dump of samples/DictCycleSeed's caught race (--catch): launched until its first inserts race and the table
/// throws, dumped with the sample's own createdump while three threads throw from it. The sample prints the managed
/// ids of those three ("HAMMERING 7 8 9"): the ground truth, written before DiagExt looks, of which threads use the
/// table now. With --main-returns the main thread throws from the table too, then returns from Main.
/// </summary>
public sealed record SeedRace(string Path, IReadOnlySet<int> Hammering, string Mode, int Launches)
{
    public static SeedRace Take(string exe, string name, bool mainReturns, int maxLaunches = 250)
    {
        string[] arguments = mainReturns ? ["--catch", "--main-returns"] : ["--catch"];
        string lastExit = "";
        for (int launch = 1; launch <= maxLaunches; launch++)
        {
            SampleProcess process;
            try
            {
                process = SampleProcess.StartAndWaitReady(exe, arguments, TimeSpan.FromSeconds(20));
            }
            catch (TimeoutException e) when (e.Message.Contains("(it exited)"))
            {
                lastExit = e.Message.Split('\n').LastOrDefault(l => l.Length > 0) ?? "";
                continue; // the first inserts did not race: a new process, a new race
            }
            using (process)
            {
                Thread.Sleep(200); // the threads go on throwing from the table
                Match hammering = Regex.Match(process.Output, @"^HAMMERING ([\d ]+)$", RegexOptions.Multiline);
                if (!hammering.Success)
                    throw new InvalidOperationException($"the seed did not name its hammering threads:\n{process.Output}");
                string path = DumpMaker.Dump(process.Pid, name, SelfContainedSample.CreateDumpOf(exe));
                return new SeedRace(path, hammering.Groups[1].Value.Split(' ', StringSplitOptions.RemoveEmptyEntries).Select(int.Parse).ToHashSet(),
                    string.Join(' ', arguments), launch);
            }
        }
        throw new NoRaceException($"{maxLaunches} launches of the seed and none raced (the last said: {lastExit})");
    }
}

/// <summary>
/// The seed's first inserts never raced in the launches allowed: nothing happened for DiagExt to find, so a test built
/// on the race is inconclusive, not failed (a fresh-clone CI run saw 250 launches on .NET 9.0.23 without one).
/// </summary>
public sealed class NoRaceException(string message) : InvalidOperationException(message);
