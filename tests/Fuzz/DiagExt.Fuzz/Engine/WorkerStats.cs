namespace DiagExt.Fuzz.Engine;

/// <summary>What a fuzzing loop did: executions, time, corpus growth and the distinct failures found.</summary>
public sealed record WorkerStats(
    string Target,
    long Executions,
    TimeSpan Elapsed,
    int Seeds,
    int CorpusSize,
    int Signatures,
    long Rejected,
    IReadOnlyDictionary<string, int> Failures,
    IReadOnlyList<(Failure Failure, byte[] Input)> FirstFailures)
{
    public double ExecutionsPerSecond => Elapsed.TotalSeconds > 0 ? Executions / Elapsed.TotalSeconds : 0;

    /// <summary>The line the supervisor parses from a worker's standard output.</summary>
    public string StatsLine => $"STATS execs={Executions} seconds={Elapsed.TotalSeconds:0.0} corpus={CorpusSize} signatures={Signatures} rejected={Rejected} failures={Failures.Count}";
}
