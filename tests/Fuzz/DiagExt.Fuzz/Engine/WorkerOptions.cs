namespace DiagExt.Fuzz.Engine;

/// <summary>How one fuzzing loop runs: which target, which random seed, how long, where inputs come from and go.</summary>
public sealed record WorkerOptions
{
    public required IFuzzTarget Target { get; init; }

    /// <summary>The random seed: with the same seed, corpus and execution count a run does exactly the same.</summary>
    public int Seed { get; init; } = 1;

    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>Stop after this many executions (for reproducible runs), whatever the time.</summary>
    public long MaxExecutions { get; init; } = long.MaxValue;

    /// <summary>Folders of seed inputs (artifacts/fuzz/seeds/&lt;target&gt;, the regression corpus).</summary>
    public IReadOnlyList<string> SeedDirectories { get; init; } = [];

    /// <summary>Where inputs with new behaviour are saved (and read back by the next run), or null.</summary>
    public string? CorpusDirectory { get; init; }

    /// <summary>Where failing inputs are saved, or null.</summary>
    public string? FindingsDirectory { get; init; }

    /// <summary>One input running longer than this is a hang.</summary>
    public TimeSpan InputTimeout { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>The memory-mapped file holding the input in flight (worker processes), or null.</summary>
    public string? CurrentInputPath { get; init; }

    /// <summary>Whether a hang ends the process (a worker) or only stops the loop's bookkeeping (in-process runs).</summary>
    public bool ExitOnHang { get; init; }

    public TextWriter? Log { get; init; }
}
