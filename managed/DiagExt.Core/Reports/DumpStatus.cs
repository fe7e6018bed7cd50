namespace DiagExt.Core.Reports;

/// <summary>How the analysis of one dump in a batch ended.</summary>
public enum DumpStatus
{
    /// <summary>Analysed: its report (findings, maybe none) is there.</summary>
    Analysed,

    /// <summary>Not analysable: missing, not a dump, truncated, no runtime any detector can use.</summary>
    Failed,

    /// <summary>Stopped after the batch's --timeout.</summary>
    TimedOut,

    /// <summary>The analysing process died (a crash in ClrMD or the DAC on a corrupt dump).</summary>
    Crashed,

    /// <summary>Not finished because the batch was cancelled (Ctrl+C).</summary>
    Cancelled,
}
