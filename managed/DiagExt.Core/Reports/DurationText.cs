using System.Globalization;

namespace DiagExt.Core.Reports;

/// <summary>
/// How a duration reads in a report, like !runaway: d:hh:mm:ss.fff for long times, seconds for short ones. The
/// records hold TimeSpans; this is their one text form (as ClrMD's ObjectCorruption has its ToString), used by the
/// renderers and by a verdict sentence that names a time.
/// </summary>
public static class DurationText
{
    public static string Format(TimeSpan span) => span.TotalHours >= 1
        ? string.Format(CultureInfo.InvariantCulture, "{0}:{1:mm\\:ss\\.fff}", (int)span.TotalHours, span)
        : string.Format(CultureInfo.InvariantCulture, "{0:0.000}s", span.TotalSeconds);
}
