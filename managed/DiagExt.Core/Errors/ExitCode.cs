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

    /// <summary>Cancelled by Ctrl+C (SIGINT): 128 + 2, as shells report a process ended by that signal.</summary>
    Cancelled = 130,

    /// <summary>Cancelled by SIGTERM (128 + 15): a service manager or a batch parent stopping diagext.</summary>
    Terminated = 143,
}
