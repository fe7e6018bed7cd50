using System.Text.RegularExpressions;

namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// Checks DML the way an attacker would probe it: only the markup diagext itself writes may appear (bold,
/// links, the four entities dbgeng decodes), elements must balance on each line, and every link command
/// must have one of the shapes diagext builds from numbers. Anything else means target text got through.
/// </summary>
public static partial class DmlChecker
{
    [GeneratedRegex("""<b>|</b>|<link cmd="(?<cmd>[^"<>&]*)">|</link>|&(?:amp|lt|gt|quot);""")]
    private static partial Regex Markup();

    [GeneratedRegex(@"^(?:!DumpObj /d 0x[0-9a-f]+|~~\[0x[0-9a-f]+\]s; (?:!clrstack|k)|dq 0x[0-9a-f]+ L8)$")]
    private static partial Regex NumericCommand();

    /// <summary>What is wrong with the DML, one entry per problem; empty when it is clean.</summary>
    public static IReadOnlyList<string> Problems(string dml)
    {
        var problems = new List<string>();
        string[] lines = dml.Split('\n');
        for (int n = 0; n < lines.Length; n++)
        {
            string line = lines[n].TrimEnd('\r');
            string where = $"line {n + 1}: {line}";
            int bold = 0, link = 0;
            foreach (Match m in Markup().Matches(line))
            {
                bold += m.Value == "<b>" ? 1 : m.Value == "</b>" ? -1 : 0;
                link += m.Value.StartsWith("<link", StringComparison.Ordinal) ? 1 : m.Value == "</link>" ? -1 : 0;
                if (bold is < 0 or > 1 || link is < 0 or > 1)
                    problems.Add($"unbalanced or nested markup at {m.Index}: {where}");
                if (m.Groups["cmd"].Success && !NumericCommand().IsMatch(m.Groups["cmd"].Value))
                    problems.Add($"link command not built from numbers: '{m.Groups["cmd"].Value}' in {where}");
            }
            if (bold != 0 || link != 0)
                problems.Add($"unclosed markup: {where}");
            string rest = Markup().Replace(line, "");
            int bad = rest.IndexOfAny(['<', '>', '&']);
            if (bad >= 0)
                problems.Add($"raw '{rest[bad]}' outside diagext's markup: {where}");
            if (rest.Any(c => char.IsControl(c) && c != '\t'))
                problems.Add($"control character: {where}");
        }
        return problems;
    }

    /// <summary>The command of every link, in order.</summary>
    public static IReadOnlyList<string> LinkCommands(string dml) =>
        Markup().Matches(dml).Where(m => m.Groups["cmd"].Success).Select(m => m.Groups["cmd"].Value).ToList();

    /// <summary>The OS thread ids (hex) of the links that switch to a thread ("~~[0x1a4]s; ..."), in order.</summary>
    public static IEnumerable<string> LinkedThreadIds(string dml) =>
        LinkCommands(dml).Select(c => Regex.Match(c, @"^~~\[0x([0-9a-f]+)\]s").Groups[1].Value).Where(t => t.Length > 0);
}
