namespace DiagExt.Tests.Rendering;

/// <summary>Strings a crafted target could carry in a type, field, method or key name.</summary>
public static class HostileStrings
{
    public const string LinkInjection = "<link cmd=\".shell -ci \\\"calc\\\" cmd /c echo PWNED\">click me</link>";

    public static readonly string[] All =
    [
        LinkInjection,
        "<exec cmd=\"q\">quit</exec>",
        "</b></link><b>",
        "a & b",
        "&amp;&lt;&#39;&apos;&#x41;",
        "it's \"quoted\"",
        "line1\nline2\r\nline3\rover",
        "\u001b[2J\u001b[31mred",
        "\u0007bell\u0000nul\u007fdel\u0085nel",
        "abc\u202Egnp.exe",          // right-to-left override
        "\u2066isolate\u2069\u200Fmark\u061Calm",
        "zero\u200Bwidth\uFEFFbom\u00ADshy",
        "line\u2028sep\u2029para",
        "lone \uD800 high and \uDC00 low",
        "tag \U000E0041 char",
        "ok: 日本語 Ünïcödé 🐛",
    ];

    /// <summary>As NUnit cases named by number: the strings themselves would break the TRX results file (XML).</summary>
    public static IEnumerable<TestCaseData> Cases() =>
        All.Select((text, i) => new TestCaseData(text).SetArgDisplayNames($"hostile #{i}"));
}
