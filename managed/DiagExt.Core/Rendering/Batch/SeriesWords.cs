using System.Globalization;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Rendering.Batch;

/// <summary>A dump series in words, the same in every batch format: its heading, its dumps, a thread's cell in one dump.</summary>
public static class SeriesWords
{
    /// <summary>"pid 4242 (libcoreclr.so@0x7f..): 3 dumps over 10.2 s (times: the dumps' headers)".</summary>
    public static string Heading(DumpSeries series)
    {
        int analysed = series.Dumps.Count(d => d.Analysed);
        string over = series.Span is { } span ? $" over {span.TotalSeconds.ToString("0.0", CultureInfo.InvariantCulture)} s" : "";
        return $"{series.Process}: {analysed} dumps{over} (times: {series.TimeSource})";
    }

    /// <summary>"a.core, 12:00:01 UTC", or why it was not compared.</summary>
    public static string Dump(SeriesDump dump) =>
        dump.Analysed
            ? dump.Time is { } t ? $"{dump.Name}, {t.ToUniversalTime().ToString("HH:mm:ss", CultureInfo.InvariantCulture)} UTC" : dump.Name
            : $"{dump.Name} (not compared)";

    /// <summary>A thread's wait in one dump: its wording, "same" when it is the very wait of the dump before, "-" when no finding shows it waiting.</summary>
    public static string Cell(SeriesCell cell) => cell.Wait is null ? "-" : cell.Same == true ? "same" : cell.Wait;

    /// <summary>"same", "moved" or "" (first dump, or not waiting): for a picture that colours the cell.</summary>
    public static string CellState(SeriesCell cell) => cell.Wait is null ? "none" : cell.Same switch { true => "same", false => "moved", null => "first" };

    /// <summary>What a series says, one line each, with its label: what cannot be trusted, what is stuck, what moved.</summary>
    public static IEnumerable<(string Label, string Text)> Verdicts(DumpSeries series) =>
        series.Problems.Select(p => ("not trusted", p))
            .Concat(series.Findings.Select(f => ("stuck", $"[{f.Detector}] {f.Title}")))
            .Concat(series.Moved.Select(m => ("moved", m)));

    /// <summary>"0x1a2b (managed 4)".</summary>
    public static string Thread(SeriesThread thread) =>
        thread.ManagedThreadId is int m ? $"0x{thread.OsThreadId:x} (managed {m})" : $"0x{thread.OsThreadId:x}";
}
