using System.Diagnostics;

namespace DiagExt.Fuzz.Engine;

/// <summary>
/// The fuzzing loop: pick a corpus input, mutate it, run it under the watchdog, keep it when its behaviour is new,
/// save it when it fails. Runs in a worker process (fuzz run) or in-process (the test suite's smoke run).
/// </summary>
public static class FuzzWorker
{
    private const int MaxFailuresKept = 16;

    public static WorkerStats Run(WorkerOptions options)
    {
        IFuzzTarget target = options.Target;
        var rng = new Random(options.Seed);
        var corpus = new Corpus(options.CorpusDirectory);
        var store = options.FindingsDirectory is { } dir ? new FindingStore(dir) : null;
        var failures = new Dictionary<string, int>();
        var first = new List<(Failure, byte[])>();
        var clock = Stopwatch.StartNew();
        long executions = 0, rejected = 0;

        void Fail(Failure failure, ReadOnlySpan<byte> input)
        {
            failures[failure.Signature] = failures.GetValueOrDefault(failure.Signature) + 1;
            if (failures[failure.Signature] == 1 && first.Count < MaxFailuresKept)
                first.Add((failure, input.ToArray()));
            string? saved = store?.Record(failure, input);
            if (saved is not null || failures[failure.Signature] == 1)
                options.Log?.WriteLine($"FINDING {saved ?? "-"} {failure.Signature}");
        }

        using CurrentInput? current = options.CurrentInputPath is { } path ? new CurrentInput(path) : null;
        using var watchdog = new Watchdog(options.InputTimeout, (input, ran) =>
        {
            Fail(new Failure(FailureKind.Hang, $"hang: {target.Name}", $"one input ran {ran.TotalSeconds:0.0}s (limit {options.InputTimeout.TotalSeconds}s)"), input);
            options.Log?.WriteLine(StatsOf(target, executions, clock.Elapsed, corpus, 0, rejected, failures, first).StatsLine);
            options.Log?.Flush();
        }, options.ExitOnHang);

        ExecResult RunOne(ReadOnlyMemory<byte> input, Func<byte[]> snapshot)
        {
            current?.Write(input.Span);
            watchdog.Arm(snapshot);
            ExecResult result = Executor.Run(target, input);
            watchdog.Disarm();
            executions++;
            if (result.Signature.StartsWith("rejected:", StringComparison.Ordinal))
                rejected++;
            if (result.Failure is { } failure)
                Fail(failure, input.Span);
            return result;
        }

        int seeds = LoadSeeds(options, corpus);
        foreach (Corpus.Entry seed in corpus.Entries.ToList())
            corpus.Observe(RunOne(seed.Data, () => seed.Data).Signature);
        if (corpus.Count == 0)
            throw new InvalidOperationException($"no seeds for {target.Name}");

        var mutator = new Mutator(rng);
        var buffer = new InputBuffer();
        TimeSpan nextStats = TimeSpan.FromSeconds(5);
        while (clock.Elapsed < options.Duration && executions < options.MaxExecutions && !watchdog.Hung)
        {
            Corpus.Entry parent = corpus.Pick(rng);
            buffer.Load(parent.Data);
            mutator.Mutate(buffer, parent.FieldsOf(target), target.Tokens, () => corpus.Pick(rng).Data);
            ExecResult result = RunOne(buffer.Memory, buffer.ToArray);
            if (result.Failure is null)
                corpus.Consider(buffer.Span, result.Signature);
            if (clock.Elapsed >= nextStats)
            {
                options.Log?.WriteLine(StatsOf(target, executions, clock.Elapsed, corpus, seeds, rejected, failures, first).StatsLine);
                options.Log?.Flush();
                nextStats += TimeSpan.FromSeconds(5);
            }
        }
        return StatsOf(target, executions, clock.Elapsed, corpus, seeds, rejected, failures, first);
    }

    private static WorkerStats StatsOf(IFuzzTarget target, long executions, TimeSpan elapsed, Corpus corpus, int seeds, long rejected,
        Dictionary<string, int> failures, List<(Failure, byte[])> first) =>
        new(target.Name, executions, elapsed, seeds, corpus.Count, corpus.Signatures, rejected, new Dictionary<string, int>(failures), [.. first]);

    private static int LoadSeeds(WorkerOptions options, Corpus corpus)
    {
        int index = 0;
        foreach (byte[] seed in options.Target.BuiltInSeeds())
            corpus.AddSeed(seed, $"built-in {index++}");
        foreach (string directory in options.SeedDirectories)
            foreach (string file in InputFiles.In(directory))
                corpus.AddSeed(InputFiles.Read(file), file);
        int seeds = corpus.Count;
        if (options.CorpusDirectory is { } kept)
            foreach (string file in InputFiles.In(kept))
                corpus.AddSeed(InputFiles.Read(file), file, withinBudget: true);
        return seeds;
    }
}
