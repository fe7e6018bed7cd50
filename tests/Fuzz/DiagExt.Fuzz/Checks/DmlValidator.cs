using System.Text.RegularExpressions;
using DiagExt.Fuzz.Engine;

namespace DiagExt.Fuzz.Checks;

/// <summary>
/// Checks DML output: the only markup in it is DiagExt's own (bold titles, links whose commands are built from
/// numbers), so once those tags are taken out no '&lt;' or '&gt;' may remain, every '&amp;' must start one of the
/// entities the escaper writes, and no control or bidi character from the target may be there.
/// </summary>
public static partial class DmlValidator
{
    public static void Check(string dml)
    {
        int links = OpenLink().Matches(dml).Count;
        if (links != CountOf(dml, "</link>") || CountOf(dml, "<b>") != CountOf(dml, "</b>"))
            throw new PropertyViolation("DML tags are unbalanced: target text opened or closed a tag");
        foreach (Match link in LinkWithText().Matches(dml))
            if (!HexNumber().IsMatch(link.Groups["text"].Value))
                throw new PropertyViolation($"DML link text is not a number: {link.Value}");
        string text = OwnTags().Replace(dml, "");
        int at = text.IndexOfAny(['<', '>']);
        if (at >= 0)
            throw new PropertyViolation($"DML markup from the target survived escaping: '{UnsafeCharacters.Around(text, at)}'");
        for (int i = text.IndexOf('&'); i >= 0; i = text.IndexOf('&', i + 1))
            if (!Entity().IsMatch(text.AsSpan(i)))
                throw new PropertyViolation($"DML has a raw '&' that is not an entity the escaper writes: '{UnsafeCharacters.Around(text, i)}'");
        if (UnsafeCharacters.FirstUnsafe(dml) is { } bad)
            throw new PropertyViolation($"DML holds raw character U+{(int)bad.Char:X4}: '{UnsafeCharacters.Around(dml, bad.Index)}'");
    }

    private static int CountOf(string text, string what)
    {
        int n = 0;
        for (int i = text.IndexOf(what, StringComparison.Ordinal); i >= 0; i = text.IndexOf(what, i + what.Length, StringComparison.Ordinal))
            n++;
        return n;
    }

    // The commands DmlStyle writes: nothing else may appear in a cmd attribute.
    [GeneratedRegex("""<link cmd="(!DumpObj /d 0x[0-9a-f]+|~~\[0x[0-9a-f]+\]s; !clrstack|dq 0x[0-9a-f]+ L8)">""")]
    private static partial Regex OpenLink();

    [GeneratedRegex("""<link cmd="[^"]*">(?<text>[^<]*)</link>""")]
    private static partial Regex LinkWithText();

    [GeneratedRegex("""<link cmd="(!DumpObj /d 0x[0-9a-f]+|~~\[0x[0-9a-f]+\]s; !clrstack|dq 0x[0-9a-f]+ L8)">|</link>|<b>|</b>""")]
    private static partial Regex OwnTags();

    [GeneratedRegex("^0x[0-9a-f]+$")]
    private static partial Regex HexNumber();

    [GeneratedRegex("^&(amp|lt|gt|quot|#39);")]
    private static partial Regex Entity();
}
