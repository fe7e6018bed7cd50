using System.Globalization;
using DiagExt.Fuzz.Engine;
using DiagExt.Fuzz.Seeds;
using DiagExt.Fuzz.Targets;

namespace DiagExt.Fuzz;

/// <summary>
/// fuzz run|worker|replay|minimize|seeds|targets. Paths default to the repository's: seeds and run output under
/// artifacts/fuzz, the regression corpus in tests/Fuzz/corpus.
/// </summary>
public static class FuzzCommandLine
{
    private const string Usage = """
        usage: DiagExt.Fuzz <command> ...
          targets                                  list the targets and what each covers
          seeds                                    write seed inputs under artifacts/fuzz/seeds from the dumps and assemblies at hand
          run <target|all> [--seconds N] [--seed S] [--timeout S] [--parallel 2]
                                                   fuzz in worker processes; failures go to artifacts/fuzz/<target>/findings
          replay <target> <file|dir>...            run inputs once; exit 1 when any fails (prints FAIL lines)
          minimize <target> <file> [--out FILE]    shrink a failing input while it fails the same way
          worker <target> [--seconds N] [--execs N] [--seed S] [--seeds DIR]... [--corpus DIR] [--findings DIR]
                                                   one loop in this process (run starts these); with --execs and the
                                                   same seed and folders, every run mutates exactly the same inputs
        """;

    public static int Run(string[] args, TextWriter output)
    {
        if (args.Length == 0 || args[0] is "-h" or "--help" or "help")
        {
            output.WriteLine(Usage);
            return args.Length == 0 ? 2 : 0;
        }
        var options = Options.Parse(args.Skip(1));
        switch (args[0])
        {
            case "targets":
                foreach (IFuzzTarget t in TargetCatalog.All)
                    output.WriteLine($"{t.Name,-10} {t.Covers}");
                return 0;
            case "seeds":
                SeedBuilder.WriteAll(FuzzPaths.SeedRoot, output);
                return 0;
            case "run":
                return RunSupervised(options, output);
            case "worker":
                return RunWorker(options, output);
            case "replay":
                return Replay(options, output);
            case "minimize":
                return Minimize(options, output);
            default:
                output.WriteLine(Usage);
                return 2;
        }
    }

    private static int RunSupervised(Options options, TextWriter output)
    {
        string which = options.Positional.FirstOrDefault() ?? "all";
        IFuzzTarget[] targets = which == "all" ? [.. TargetCatalog.All] : [TargetCatalog.Find(which)];
        var summaries = new List<Supervisor.Summary>();
        // At most two targets at a time: the machine's two cores are shared.
        Parallel.ForEach(targets, new ParallelOptions { MaxDegreeOfParallelism = options.Int("parallel", 2) }, target =>
        {
            var supervisor = new Supervisor(target.Name, FuzzPaths.RunRoot, options.Int("seed", 1), TimeSpan.FromSeconds(options.Int("seconds", 600)),
                TimeSpan.FromSeconds(options.Int("timeout", 10)), FuzzPaths.SeedDirectories(target.Name));
            Supervisor.Summary summary = supervisor.Run(output);
            lock (summaries)
                summaries.Add(summary);
        });
        output.WriteLine();
        output.WriteLine($"{"target",-10} {"seconds",8} {"execs",10} {"execs/s",8} {"restarts",8} {"corpus",7}  failures");
        foreach (Supervisor.Summary s in summaries.OrderBy(s => s.Target))
            output.WriteLine($"{s.Target,-10} {s.Seconds,8:0} {s.Executions,10:N0} {s.ExecutionsPerSecond,8:0.0} {s.Restarts,8} {s.CorpusSize,7}  {(s.Failures.Count == 0 ? "none" : string.Join("; ", s.Failures.Keys))}");
        return summaries.All(s => s.Failures.Count == 0) ? 0 : 1;
    }

    private static int RunWorker(Options options, TextWriter output)
    {
        IFuzzTarget target = TargetCatalog.Find(options.Positional[0]);
        WorkerStats stats = FuzzWorker.Run(new WorkerOptions
        {
            Target = target,
            Seed = options.Int("seed", 1),
            Duration = TimeSpan.FromSeconds(options.Int("seconds", 60)),
            MaxExecutions = options.Value("execs") is { } execs ? long.Parse(execs, CultureInfo.InvariantCulture) : long.MaxValue,
            InputTimeout = TimeSpan.FromSeconds(options.Int("timeout", 10)),
            SeedDirectories = options.All("seeds"),
            CorpusDirectory = options.Value("corpus"),
            FindingsDirectory = options.Value("findings"),
            CurrentInputPath = options.Value("current"),
            ExitOnHang = true,
            Log = output,
        });
        output.WriteLine(stats.StatsLine);
        return 0;
    }

    private static int Replay(Options options, TextWriter output)
    {
        IFuzzTarget target = TargetCatalog.Find(options.Positional[0]);
        int failed = 0;
        foreach (string path in options.Positional.Skip(1).SelectMany(p => Directory.Exists(p) ? InputFiles.In(p) : [p]))
        {
            Replayer.Replay replay = Replayer.Run(target, path, TimeSpan.FromSeconds(options.Int("timeout", 30)));
            if (replay.Failure is { } f)
            {
                failed++;
                output.WriteLine($"FAIL {path} {f.Signature}");
                output.WriteLine(f.Detail);
            }
            else
            {
                output.WriteLine($"ok   {path} {replay.Result!.Elapsed.TotalMilliseconds:0}ms {replay.Result.AllocatedBytes / 1024:N0}KB {replay.Result.Signature}");
            }
        }
        return failed == 0 ? 0 : 1;
    }

    private static int Minimize(Options options, TextWriter output)
    {
        IFuzzTarget target = TargetCatalog.Find(options.Positional[0]);
        string path = options.Positional[1];
        byte[] input = InputFiles.Read(path);
        Func<byte[], string?> failureOf = options.Has("child")
            ? Minimizer.InChildProcess(target.Name, Path.Combine(Path.GetTempPath(), $"fuzz-minimize-{Environment.ProcessId}.bin"), TimeSpan.FromSeconds(options.Int("timeout", 20)))
            : Minimizer.InProcess(target);
        byte[] minimized = new Minimizer(target, failureOf, output).Minimize(input);
        string stem = options.Value("out") ?? Path.Combine(Path.GetDirectoryName(path)!, Path.GetFileNameWithoutExtension(path) + "-min");
        output.WriteLine($"written {InputFiles.Write(stem, minimized)}");
        return 0;
    }

    /// <summary>"--name value" options and positional arguments.</summary>
    private sealed class Options
    {
        private readonly List<(string Name, string? Value)> _named = [];

        public List<string> Positional { get; } = [];

        public static Options Parse(IEnumerable<string> args)
        {
            var o = new Options();
            using IEnumerator<string> e = args.GetEnumerator();
            while (e.MoveNext())
            {
                if (e.Current.StartsWith("--", StringComparison.Ordinal))
                {
                    string name = e.Current[2..];
                    o._named.Add((name, name == "child" ? null : e.MoveNext() ? e.Current : null));
                }
                else
                {
                    o.Positional.Add(e.Current);
                }
            }
            return o;
        }

        public bool Has(string name) => _named.Any(n => n.Name == name);

        public string? Value(string name) => _named.LastOrDefault(n => n.Name == name).Value;

        public List<string> All(string name) => _named.Where(n => n.Name == name && n.Value is not null).Select(n => n.Value!).ToList();

        public int Int(string name, int fallback) => Value(name) is { } v ? int.Parse(v, CultureInfo.InvariantCulture) : fallback;
    }
}
