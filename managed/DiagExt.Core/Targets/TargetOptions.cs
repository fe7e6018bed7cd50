using DiagExt.Core.Errors;
using DiagExt.Core.Targets.Symbols;

namespace DiagExt.Core.Targets;

/// <summary>How to open a target. A DAC comes from <see cref="DacPath"/>, from beside the runtime, or through <see cref="Symbols"/>; nothing is downloaded unless that path names a server.</summary>
public sealed record TargetOptions
{
    /// <summary>An explicit DAC (libmscordaccore.so / mscordaccore.dll) for the target's runtime.</summary>
    public string? DacPath { get; init; }

    /// <summary>Where to look for a DAC that is not beside an installed runtime; downloads only from the servers it names.</summary>
    public SymbolPath Symbols { get; init; } = SymbolPath.Empty;

    /// <summary>How long a symbol server may stay silent (connecting, answering, sending) before the download is given up.</summary>
    public TimeSpan SymbolTimeout { get; init; } = TimeSpan.FromSeconds(30);

    public Limits Limits { get; init; } = Limits.Default;

    /// <summary>How advice in a report is worded: the command line words it with its options (--dac, --symbol-server).</summary>
    public IRemedyWords Remedies { get; init; } = IRemedyWords.Plain;

    /// <summary>
    /// For live targets: stop the process (or read a snapshot) while it is read. Off when a debugger has already
    /// stopped it (the WinDbg extension): a process under a debugger cannot be seized with ptrace on Linux, and
    /// copying its address space into a snapshot on Windows would only cost time.
    /// </summary>
    public bool SuspendLiveProcess { get; init; } = true;

    /// <summary>
    /// Threads that may read the target at once (the heap pass beside the detectors); null for one per core.
    /// Used only when ClrMD reports the target thread-safe (dump files; see <see cref="Target.Workers"/>).
    /// </summary>
    public int? Threads { get; init; }

    /// <summary>For live targets: how long to watch thread CPU time before suspending the process.</summary>
    public TimeSpan LiveCpuSampleWindow { get; init; } = TimeSpan.FromMilliseconds(250);
}
