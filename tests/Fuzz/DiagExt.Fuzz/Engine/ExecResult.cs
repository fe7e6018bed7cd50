namespace DiagExt.Fuzz.Engine;

/// <summary>The kinds of failure the fuzzer reports.</summary>
public enum FailureKind
{
    /// <summary>An exception other than the documented bad-input ones escaped the reader.</summary>
    Crash,

    /// <summary>One input ran longer than the watchdog allows.</summary>
    Hang,

    /// <summary>One input allocated more than the memory budget (or ran out of memory).</summary>
    Memory,

    /// <summary>An output property failed (JSON, DML, text, consistency).</summary>
    Property,

    /// <summary>The worker process died (stack overflow, native fault): only the supervisor sees it.</summary>
    ProcessDied,
}

/// <summary>A failure: its kind, a stable signature to tell distinct defects apart, and the details.</summary>
public sealed record Failure(FailureKind Kind, string Signature, string Detail);

/// <summary>What one execution gave: a behaviour signature, or a failure.</summary>
public sealed record ExecResult(string Signature, Failure? Failure, long AllocatedBytes, TimeSpan Elapsed);
