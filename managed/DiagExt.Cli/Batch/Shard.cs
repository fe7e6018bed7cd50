using System.Globalization;
using DiagExt.Cli.CommandLine;

namespace DiagExt.Cli.Batch;

/// <summary>
/// --shard I/N: this worker is shard I of N, counted from 0 as Slurm's SLURM_ARRAY_TASK_ID and Kubernetes'
/// JOB_COMPLETION_INDEX are, so an engine's index can be passed as it is.
/// </summary>
public sealed record Shard(int Index, int Count)
{
    /// <summary>More shards than this is a typo, not a cluster.</summary>
    public const int MaxCount = 100_000;

    public static Shard Parse(string text)
    {
        string[] parts = text.Split('/');
        if (parts.Length != 2 || !Number(parts[0], out int index) || !Number(parts[1], out int count))
            throw new UsageException($"--shard expects I/N (shard I of N, I from 0 to N-1), e.g. 0/4, not '{text}'");
        if (count < 1 || count > MaxCount)
            throw new UsageException($"--shard {text}: N must be from 1 to {MaxCount:N0}");
        if (index >= count)
            throw new UsageException($"--shard {text}: I counts from 0, so it must be below N (0/{count} to {count - 1}/{count})");
        return new Shard(index, count);
    }

    public override string ToString() => $"{Index}/{Count}";

    private static bool Number(string text, out int value) =>
        int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out value);
}
