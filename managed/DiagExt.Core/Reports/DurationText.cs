using System.Globalization;

namespace DiagExt.Core.Reports;

/// <summary>
/// How a duration reads in a report, like !runaway: d:hh:mm:ss.fff for long times, seconds for short ones. The
/// records hold TimeSpans; this is their one text form (as ClrMD's ObjectCorruption has its ToString), used by the
/// renderers and by a verdict sentence that names a time.
/// </summary>
public static class DurationText
{
    /// <summary>A measured time (CPU used, a wait observed): to the millisecond.</summary>
    public static string Format(TimeSpan span) => span.TotalHours >= 1
        ? string.Format(CultureInfo.InvariantCulture, "{0}:{1:mm\\:ss\\.fff}", (int)span.TotalHours, span)
        : string.Format(CultureInfo.InvariantCulture, "{0:0.000}s", span.TotalSeconds);

    /// <summary>A configured time (a WCF binding's timeout), as it was likely written: "1 min", "infinite".</summary>
    public static string Setting(TimeSpan span) => span.TotalSeconds switch
    {
        >= 86400 * 365 => "infinite",
        >= 3600 => string.Format(CultureInfo.InvariantCulture, "{0:0.#} h", span.TotalHours),
        >= 60 => string.Format(CultureInfo.InvariantCulture, "{0:0.#} min", span.TotalMinutes),
        _ => string.Format(CultureInfo.InvariantCulture, "{0:0.#} s", span.TotalSeconds),
    };
}
