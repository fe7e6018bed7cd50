using DiagExt.Core;
using DiagExt.Core.Catalog;
using System.Text;
using DiagExt.Core.Analysis;
using DiagExt.Core.Detectors.WcfHang;
using DiagExt.Core.Rendering;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using DiagExt.Fuzz.Checks;
using DiagExt.Fuzz.Engine;

namespace DiagExt.Fuzz.Targets.Dml;

/// <summary>
/// Strings from a target in every place a report shows them (title, summary, evidence text beside links, thread
/// roles and frames, advice, notes, the target's name, a detector field) rendered as DML, text and JSON: no markup
/// from the input may survive DML escaping, no control or bidi character may reach text or DML raw, the JSON must
/// parse and give back what went in.
/// </summary>
public sealed class DmlTarget : IFuzzTarget
{
    private const int Parts = 12;

    public string Name => "dml";

    public string Covers => "Rendering/DmlEscaper, TextSanitizer, ConsoleReportRenderer (DmlStyle, PlainStyle), Reports/ReportJson, Reports/Markup";

    public IReadOnlyList<byte[]> Tokens { get; } = [.. HostileText.Pieces.Select(p => Encoding.Unicode.GetBytes(p)), Encoding.Unicode.GetBytes(HostileText.Separator.ToString())];

    public IEnumerable<byte[]> BuiltInSeeds()
    {
        yield return HostileText.Join("Corrupt Dictionary<String, Int32>", "entries[7].next == 7", "instance: ", " count 8", "owns the loader lock", "ntdll!RtlEnterCriticalSection+0x91", "threadcleanup+0x13d3", "fix it", "note", "dump.dmp", "no CPU", "Ns.Type");
        yield return HostileText.Join([.. HostileText.Pieces.Take(Parts)]);
        yield return HostileText.Join([.. HostileText.Pieces.Skip(Parts).Take(Parts)]);
        yield return HostileText.Join([.. HostileText.Pieces.Skip(2 * Parts).Take(Parts)]);
        yield return HostileText.Join([.. HostileText.Pieces.Skip(3 * Parts)]);
    }

    public IReadOnlyList<Field> Fields(ReadOnlySpan<byte> input) => [];

    public bool IsDocumentedRejection(Exception e) => false;

    public string Execute(ReadOnlyMemory<byte> input)
    {
        string[] s = HostileText.Split(input.Span, Parts);
        uint thread = (uint)s[4].Length * 0x1001u;
        // A real detector's record (its JSON contract is generated with the others), with a field of its own.
        var finding = new WcfHangFinding
        {
            Kind = s[0].Length % 2 == 0 ? "fuzz" : s[0],
            Title = s[0],
            Summary = s[1],
            Evidence =
            [
                Markup.Line().Text(s[2]).Object(0x7f0000001000 + (ulong)s[2].Length).Text(s[3]).Thread(thread).Native((ulong)s[3].Length),
                Markup.Text(s[3] + s[2]),
            ],
            Threads = [new ThreadRef { OsThreadId = thread, Role = s[4], Frame = s[5].Length > 0 ? s[5] : null, CallerFrame = s[6].Length > 0 ? s[6] : null, UserCpu = TimeSpan.FromSeconds(s[6].Length) }],
            Advice = s[7].Length > 0 ? s[7] : null,
            RequestAddress = "0x7f0000002000",
            Proof = [s[10]],
            Operation = s[11],
        };
        var summary = new TargetSummary(s[9], TargetKind.ElfCore, s[10], s[11], null, 1, RuntimeStatus.NotPresent, null, s[10].Length > 0 ? s[10] : null);
        var outcome = new DetectorOutcome(WcfHangDetector.CommandName, DetectorStatus.Ran, s[8].Length > 0 ? s[8] : null, [finding], TimeSpan.Zero);
        var report = new AnalysisReport(summary, [outcome], null, TimeSpan.Zero);
        ReportChecks.Check(report);
        CheckJsonRoundTrip(report, s[1]);
        return new Signature().Add("dml", Classes(string.Concat(s))).ToString();
    }

    /// <summary>The JSON gives back what went in (lone surrogates become U+FFFD, as System.Text.Json writes them).</summary>
    private static void CheckJsonRoundTrip(AnalysisReport report, string summary)
    {
        var writer = new StringWriter();
        DetectorCatalog.Json.Write(report, writer);
        string? back = System.Text.Json.JsonDocument.Parse(writer.ToString()).RootElement.GetProperty("findings")[0].GetProperty("summary").GetString();
        string expected = Encoding.UTF8.GetString(Encoding.UTF8.GetBytes(summary));
        if (back != expected)
            throw new PropertyViolation("JSON does not give back the summary that went in");
    }

    /// <summary>Which kinds of hostile character the strings hold: the behaviours worth keeping inputs for.</summary>
    private static string Classes(string text)
    {
        var classes = new SortedSet<string>();
        foreach (char c in text)
            classes.Add(c switch
            {
                '<' or '>' => "tag",
                '&' => "amp",
                '"' or '\'' => "quote",
                _ when char.IsControl(c) => "control",
                _ when UnsafeCharacters.IsBidiControl(c) => "bidi",
                _ when char.IsSurrogate(c) => "surrogate",
                _ when c > 0x7F => "unicode",
                _ => "plain",
            });
        return string.Join(",", classes);
    }
}
