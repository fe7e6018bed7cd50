namespace DiagExt.Core.Detectors.Hang;

/// <summary>The finalizer thread of a blocked-finalizer finding and the objects that wait for it.</summary>
public sealed record HangFinalizer
{
    public required uint OsThreadId { get; init; }

    /// <summary>"blocked" (waits on something), or "busy" (runs or sleeps in a Finalize with many objects queued).</summary>
    public required string State { get; init; }

    /// <summary>The type whose Finalize it runs now, when a Finalize frame is on its stack.</summary>
    public string? Finalizing { get; init; }

    /// <summary>Objects ready for finalization (the f-reachable queue), counted from the queue's length.</summary>
    public required long ReadyForFinalization { get; init; }

    /// <summary>How many of them had their type read (at most 100,000): fewer than the count means the types are of a part.</summary>
    public required int TypesRead { get; init; }

    /// <summary>The commonest types among those read, most first.</summary>
    public IReadOnlyList<HangTypeCount> TopTypes { get; init; } = [];
}

/// <summary>A type and how many of its objects wait for finalization.</summary>
public sealed record HangTypeCount(string Type, int Count);
