using System.Globalization;
using System.Text;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Rendering.Batch;

/// <summary>
/// A finding's ring (a deadlock's cycle) as a small inline SVG: the nodes on a circle, an arrow from each to the next
/// labelled with what it waits for. No script, no external resource; every label is escaped (it comes from the dump).
/// </summary>
public static class RingSvg
{
    /// <summary>Most nodes drawn; a longer ring is said in the caption.</summary>
    public const int MaxNodes = 12;

    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    private const double BoxHeight = 26;

    private static double Width(string label) => Math.Max(120, 7.5 * Math.Min(label.Length, 60) + 16);

    /// <summary>How far from a box's centre a line in direction (ux, uy) leaves it, plus a few pixels.</summary>
    private static double BoxExit(double width, double ux, double uy) =>
        Math.Min(Math.Abs(ux) < 1e-9 ? double.MaxValue : width / 2 / Math.Abs(ux), Math.Abs(uy) < 1e-9 ? double.MaxValue : BoxHeight / 2 / Math.Abs(uy)) + 5;

    public static string Render(IReadOnlyList<RingStep> ring)
    {
        if (ring.Count == 0)
            return "";
        var steps = ring.Take(MaxNodes).ToList();
        int n = steps.Count;
        double radius = n == 1 ? 0 : Math.Max(90, 40 * n);
        double width = 2 * radius + 360, height = 2 * radius + 120, cx = width / 2, cy = height / 2;
        (double X, double Y) At(int i) => (cx + radius * Math.Sin(2 * Math.PI * i / n), cy - radius * Math.Cos(2 * Math.PI * i / n));
        var svg = new StringBuilder();
        svg.Append(Invariant, $"<svg class=\"ring\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:0}\" height=\"{height:0}\" viewBox=\"0 0 {width:0} {height:0}\" role=\"img\" aria-label=\"cycle of {ring.Count}\">");
        svg.Append("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#b33\"/></marker></defs>");
        for (int i = 0; i < n; i++)
        {
            var (x1, y1) = At(i);
            var (x2, y2) = At((i + 1) % n);
            if (n == 1)
            {
                svg.Append(Invariant, $"<path d=\"M{x1 + 60:0.#},{y1 - 10:0.#} C{x1 + 140:0.#},{y1 - 80:0.#} {x1 - 140:0.#},{y1 - 80:0.#} {x1 - 60:0.#},{y1 - 12:0.#}\" fill=\"none\" stroke=\"#b33\" stroke-width=\"1.5\" marker-end=\"url(#arrow)\"/>");
                svg.Append(Invariant, $"<text x=\"{x1:0.#}\" y=\"{y1 - 70:0.#}\" text-anchor=\"middle\" font-size=\"11\">{HtmlEscaper.Escape(steps[i].EdgeToNext)}</text>");
                break;
            }
            double dx = x2 - x1, dy = y2 - y1, length = Math.Max(1, Math.Sqrt(dx * dx + dy * dy));
            double ux = dx / length, uy = dy / length;
            // Two nodes wait for each other: two arrows side by side, not one on the other.
            double side = n == 2 ? 10 : 0, px = -uy * side, py = ux * side;
            // Each arrow starts and ends at the edge of its node's box (plus a little air).
            double from = BoxExit(Width(steps[i].Node), ux, uy), to = BoxExit(Width(steps[(i + 1) % n].Node), ux, uy);
            double sx = x1 + ux * from + px, sy = y1 + uy * from + py, ex = x2 - ux * to + px, ey = y2 - uy * to + py;
            svg.Append(Invariant, $"<line x1=\"{sx:0.#}\" y1=\"{sy:0.#}\" x2=\"{ex:0.#}\" y2=\"{ey:0.#}\" stroke=\"#b33\" stroke-width=\"1.5\" marker-end=\"url(#arrow)\"/>");
            double mx = (sx + ex) / 2, my = (sy + ey) / 2;
            // The label sits beside the arrow's middle, away from the ring's centre (or from the other arrow).
            double ox = n == 2 ? px : mx - cx, oy = n == 2 ? py : my - cy, o = Math.Max(1, Math.Sqrt(ox * ox + oy * oy));
            double lx = mx + ox / o * 8, ly = my + oy / o * 22 + 4;
            string anchor = Math.Abs(ox / o) < 0.3 ? "middle" : ox > 0 ? "start" : "end";
            svg.Append(Invariant, $"<text x=\"{lx:0.#}\" y=\"{ly:0.#}\" text-anchor=\"{anchor}\" font-size=\"11\" fill=\"#555\">{HtmlEscaper.Escape(steps[i].EdgeToNext)}</text>");
        }
        for (int i = 0; i < n; i++)
        {
            var (x, y) = At(i);
            double w = Width(steps[i].Node);
            svg.Append(Invariant, $"<rect x=\"{x - w / 2:0.#}\" y=\"{y - 13:0.#}\" width=\"{w:0.#}\" height=\"26\" rx=\"6\" fill=\"#fff4f4\" stroke=\"#b33\"/>");
            svg.Append(Invariant, $"<text x=\"{x:0.#}\" y=\"{y + 4:0.#}\" text-anchor=\"middle\" font-size=\"12\" font-family=\"monospace\">{HtmlEscaper.Escape(steps[i].Node)}</text>");
        }
        svg.Append("</svg>");
        if (ring.Count > n)
            svg.Append($"<p>the first {n} of a cycle of {ring.Count}</p>");
        return svg.ToString();
    }
}
