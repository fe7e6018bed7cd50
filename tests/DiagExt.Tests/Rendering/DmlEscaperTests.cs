using DiagExt.Core.Rendering;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Rendering;

/// <summary>Target strings rendered as DML must come out inert: no tag, no link, no entity dbgeng cannot decode, no invisible character.</summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class DmlEscaperTests
{
    [TestCaseSource(typeof(HostileStrings), nameof(HostileStrings.Cases))]
    public void Hostile_strings_come_out_as_plain_dml_text(string hostile)
    {
        string dml = DmlEscaper.Escape(hostile);
        Assert.That(DmlChecker.Problems(dml), Is.Empty, dml);
        Assert.That(DmlChecker.LinkCommands(dml), Is.Empty, dml);
        Assert.That(dml, Does.Not.Contain("\n").And.Not.Contain("\r"));
    }

    [Test]
    public void A_link_injection_is_shown_as_its_text()
    {
        Assert.That(DmlEscaper.Escape(HostileStrings.LinkInjection),
            Is.EqualTo("&lt;link cmd=&quot;.shell -ci \\&quot;calc\\&quot; cmd /c echo PWNED&quot;&gt;click me&lt;/link&gt;"));
    }

    [Test]
    public void Only_entities_dbgeng_decodes_are_written()
    {
        // Checked against Microsoft's dbgeng 10.0.29507: &#39; and &apos; end the output call's text there.
        Assert.That(DmlEscaper.Escape("it's"), Is.EqualTo("it's"));
        Assert.That(DmlEscaper.Escape("&#39;"), Is.EqualTo("&amp;#39;"));
    }

    [TestCase("abc\u202Egnp", "abc\\u202egnp", TestName = "{m}(case 0)")]
    [TestCase("a\u200Fb\u061Cc", "a\\u200fb\\u061cc", TestName = "{m}(case 1)")]
    [TestCase("a\u200Bb\uFEFFc", "a\\u200bb\\ufeffc", TestName = "{m}(case 2)")]
    [TestCase("a\u2028b", "a\\u2028b", TestName = "{m}(case 3)")]
    [TestCase("a\u001b[31m", "a\\u001b[31m", TestName = "{m}(case 4)")]
    [TestCase("t\U000E0041", "t\\U000e0041", TestName = "{m}(case 6)")]
    public void Invisible_and_bidi_characters_become_visible_escapes(string text, string expected)
    {
        Assert.That(DmlEscaper.Escape(text), Is.EqualTo(expected));
        Assert.That(TextSanitizer.Sanitize(text), Is.EqualTo(expected));
    }

    [Test]
    public void A_lone_surrogate_becomes_a_visible_escape()
    {
        // Built in code: an attribute argument would store it as UTF-8 and turn it into U+FFFD.
        string text = "x" + (char)0xD800 + "y" + (char)0xDC00;
        Assert.That(DmlEscaper.Escape(text), Is.EqualTo("x\\ud800y\\udc00"));
    }

    [Test]
    public void Ordinary_unicode_is_left_alone() =>
        Assert.That(DmlEscaper.Escape("日本語 Ünïcödé 🐛"), Is.EqualTo("日本語 Ünïcödé 🐛"));
}
