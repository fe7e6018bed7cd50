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
            // Shorten each arrow so it starts and ends outside the node boxes.
            double dx = x2 - x1, dy = y2 - y1, length = Math.Sqrt(dx * dx + dy * dy), cut = Math.Min(34, length / 3);
            double sx = x1 + dx / length * cut, sy = y1 + dy / length * cut, ex = x2 - dx / length * cut, ey = y2 - dy / length * cut;
            svg.Append(Invariant, $"<line x1=\"{sx:0.#}\" y1=\"{sy:0.#}\" x2=\"{ex:0.#}\" y2=\"{ey:0.#}\" stroke=\"#b33\" stroke-width=\"1.5\" marker-end=\"url(#arrow)\"/>");
            double mx = (x1 + x2) / 2 + (x2 - x1 == 0 ? 0 : 0), my = (y1 + y2) / 2;
            // The label sits outside the circle, beside the arrow's middle.
            double ox = mx - cx, oy = my - cy, o = Math.Max(1, Math.Sqrt(ox * ox + oy * oy));
            double lx = mx + ox / o * 14, ly = my + oy / o * 14;
            string anchor = Math.Abs(ox) < 20 ? "middle" : ox > 0 ? "start" : "end";
            svg.Append(Invariant, $"<text x=\"{lx:0.#}\" y=\"{ly:0.#}\" text-anchor=\"{anchor}\" font-size=\"11\" fill=\"#555\">{HtmlEscaper.Escape(steps[i].EdgeToNext)}</text>");
        }
        for (int i = 0; i < n; i++)
        {
            var (x, y) = At(i);
            double w = Math.Max(120, 7.5 * Math.Min(steps[i].Node.Length, 60) + 16);
            svg.Append(Invariant, $"<rect x=\"{x - w / 2:0.#}\" y=\"{y - 13:0.#}\" width=\"{w:0.#}\" height=\"26\" rx=\"6\" fill=\"#fff4f4\" stroke=\"#b33\"/>");
            svg.Append(Invariant, $"<text x=\"{x:0.#}\" y=\"{y + 4:0.#}\" text-anchor=\"middle\" font-size=\"12\" font-family=\"monospace\">{HtmlEscaper.Escape(steps[i].Node)}</text>");
        }
        svg.Append("</svg>");
        if (ring.Count > n)
            svg.Append($"<p>the first {n} of a cycle of {ring.Count}</p>");
        return svg.ToString();
    }
}
