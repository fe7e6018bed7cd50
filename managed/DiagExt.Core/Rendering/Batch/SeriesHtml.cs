using System.Globalization;
using System.Text;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Rendering.Batch;

/// <summary>
/// A dump series in the HTML report: what it proves and what moved, then a picture of threads x dumps, one cell per
/// wait, coloured "same" (the very wait of the dump before), "moved", "first" or empty, with the wait in the cell's
/// tooltip. An inline SVG with no script; every string from the dumps is escaped.
/// </summary>
public static class SeriesHtml
{
    private const int CellWidth = 90, CellHeight = 22, LabelWidth = 190, HeadHeight = 24;

    public static void Write(BatchReport batch, TextWriter o)
    {
        if (batch.Series.Count == 0)
            return;
        o.WriteLine("<h2>Dumps of one process</h2>");
        foreach (DumpSeries series in batch.Series)
        {
            o.WriteLine($"<section class=\"series\"><h3>{E(SeriesWords.Heading(series))}</h3><ol>");
            foreach (SeriesDump d in series.Dumps)
                o.WriteLine($"<li class=\"mono\">{E(SeriesWords.Dump(d))}</li>");
            o.WriteLine("</ol><ul>");
            foreach ((string label, string text) in SeriesWords.Verdicts(series))
                o.WriteLine($"<li class=\"{label switch { "stuck" => "hazard", "moved" => "ok", _ => "warn" }}\"><b>{E(label)}</b>: {E(text)}</li>");
            o.WriteLine("</ul>");
            if (series.Threads.Count > 0)
            {
                o.WriteLine(Picture(series));
                o.WriteLine("<p class=\"hint\">Each cell is a thread in one dump: <b>same</b> is the very wait of the dump before (frame, object, holder, registers and stack); <b>moved</b> means it ran or waits for something else; hover a cell for its wait.</p>");
            }
            o.WriteLine("</section>");
        }
    }

    /// <summary>The threads x dumps grid.</summary>
    public static string Picture(DumpSeries series)
    {
        int columns = series.Threads.Max(t => t.Cells.Count);
        int width = LabelWidth + columns * CellWidth + 10, height = HeadHeight + series.Threads.Count * CellHeight + 6;
        var svg = new StringBuilder();
        svg.Append(CultureInfo.InvariantCulture, $"<svg class=\"series-grid\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{series.Threads.Count} threads across {columns} dumps\">");
        for (int c = 0; c < columns; c++)
            svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{LabelWidth + c * CellWidth + CellWidth / 2}\" y=\"16\" text-anchor=\"middle\" class=\"head\">dump {c + 1}</text>");
        for (int r = 0; r < series.Threads.Count; r++)
        {
            SeriesThread t = series.Threads[r];
            int y = HeadHeight + r * CellHeight;
            svg.Append(CultureInfo.InvariantCulture, $"<text x=\"4\" y=\"{y + 15}\" class=\"thread\">{E(SeriesWords.Thread(t))}</text>");
            for (int c = 0; c < t.Cells.Count; c++)
            {
                SeriesCell cell = t.Cells[c];
                string state = SeriesWords.CellState(cell);
                svg.Append(CultureInfo.InvariantCulture, $"<rect x=\"{LabelWidth + c * CellWidth + 2}\" y=\"{y + 2}\" width=\"{CellWidth - 4}\" height=\"{CellHeight - 4}\" class=\"cell {state}\"><title>{E(cell.Wait ?? "no finding shows it waiting")}</title></rect>");
                svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{LabelWidth + c * CellWidth + CellWidth / 2}\" y=\"{y + 15}\" text-anchor=\"middle\" class=\"cell-label\">{state switch { "none" => "", _ => state }}</text>");
            }
        }
        svg.Append("</svg>");
        return svg.ToString();
    }

    private static string E(string? text) => HtmlEscaper.Escape(text);
}
