using System.Text.Json.Serialization;

namespace DiagExt.Core.Reports;

/// <summary>A thread a finding involves: who it is, what it is doing there and how much CPU it has used.</summary>
public sealed record ThreadRef
{
    /// <summary>The OS thread id (a number in JSON; hex in text output, as WinDbg shows it).</summary>
    public required uint OsThreadId { get; init; }

    public int? ManagedThreadId { get; init; }

    /// <summary>Its part in the finding, e.g. "spinning in FindValue on this instance".</summary>
    public required string Role { get; init; }

    /// <summary>The frame that ties it to the finding, e.g. "Dictionary`2.FindValue".</summary>
    public string? Frame { get; init; }

    /// <summary>The first frame of the user's own code below <see cref="Frame"/>, when there is one.</summary>
    public string? CallerFrame { get; init; }

    /// <summary>The thread's managed stack, innermost first, bounded (<see cref="Targets.TargetThread.StackText"/>).</summary>
    public IReadOnlyList<string>? Stack { get; init; }

    /// <summary>CPU time in user mode, when the target records it.</summary>
    [JsonPropertyName("userCpuSeconds"), JsonConverter(typeof(SecondsJsonConverter))]
    public TimeSpan? UserCpu { get; init; }

    [JsonPropertyName("kernelCpuSeconds"), JsonConverter(typeof(SecondsJsonConverter))]
    public TimeSpan? KernelCpu { get; init; }

    /// <summary>
    /// A hash of the thread's registers and live stack words, pointers left out, when the detector read them:
    /// the same value in two dumps of one process says the thread did not run in between (a dump series compares it).
    /// </summary>
    public string? Fingerprint { get; init; }

    /// <summary>Share of a core used just before a live attach (0..1), when measured.</summary>
    public double? RecentCpuShare { get; init; }
}
