namespace DiagExt.Core.Errors;

/// <summary>The documented exit codes of <c>diagext</c>.</summary>
public enum ExitCode
{
    /// <summary>Analysis ran; no hazard found.</summary>
    NothingFound = 0,

    /// <summary>Analysis ran; at least one hazard found.</summary>
    HazardsFound = 1,

    /// <summary>Bad usage or unusable input (missing, truncated or corrupt dump, no DAC, bad option).</summary>
    InputError = 2,

    /// <summary>
    /// Analysis ran but is incomplete: a detector failed (its outcome says why) and no other found a hazard. A
    /// hazard found by the detectors that did run still gives <see cref="HazardsFound"/>, with the failure in the report.
    /// </summary>
    Incomplete = 3,

    /// <summary>Cancelled by Ctrl+C (SIGINT): 128 + 2, as shells report a process ended by that signal.</summary>
    Cancelled = 130,

    /// <summary>Cancelled by SIGTERM (128 + 15): a service manager or a batch parent stopping diagext.</summary>
    Terminated = 143,
}

/// <summary>The exit codes in words, for every help text and package page that lists them.</summary>
public static class ExitCodeText
{
    public const string Summary =
        "exit codes: 0 nothing found, 1 hazards found, 2 usage or input error, 3 incomplete (a detector failed, none found a hazard), " +
        "130 cancelled by Ctrl+C, 143 by SIGTERM.";
}
