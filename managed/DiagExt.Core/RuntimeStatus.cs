namespace DiagExt.Core;

public enum RuntimeAvailability
{
    /// <summary>No CLR module in the target: a native process.</summary>
    NotPresent,

    /// <summary>A ClrRuntime was created: managed detectors can run.</summary>
    Loaded,

    /// <summary>A CLR is there but no matching DAC was found (and none is downloaded).</summary>
    DacNotFound,

    /// <summary>The DAC was found but could not be loaded or does not match.</summary>
    DacFailed,

    /// <summary>The DAC for this target cannot run on this host (e.g. a Windows dump on Linux).</summary>
    UnsupportedHost,
}

/// <summary>What DiagExt knows about the .NET runtime in a target and, when it cannot use it, one line saying why.</summary>
public sealed record RuntimeStatus(RuntimeAvailability Availability, string? Version, string? Flavor, string? Problem)
{
    public bool IsLoaded => Availability == RuntimeAvailability.Loaded;

    public static RuntimeStatus NotPresent { get; } = new(RuntimeAvailability.NotPresent, null, null, "no .NET runtime found in the target");
}
