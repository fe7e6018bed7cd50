using System.Text;

namespace DiagExt.Fuzz.Targets.Dml;

/// <summary>
/// What a target can put in a type name, key, module or export name to attack a debugger's output: DML tags and
/// entities, terminal escape sequences, line breaks, bidi overrides and marks, lone surrogates.
/// </summary>
internal static class HostileText
{
    public const char Separator = '\uFFFF';

    public static readonly string[] Pieces =
    [
        "<link cmd=\".shell rm -rf /\">click</link>", "<exec cmd=\"!analyze\">", "</link>", "<b>", "</b>", "<col fg=\"emphfg\">",
        "&", "&amp;", "&#60;", "&lt", "<", ">", "\"", "'", "<-", "]]>",
        "\u001b[31m", "\u001b]0;title\u0007", "\r", "\n", "\t", "\0", "\u0085", "\u009b", "\u2028", "\u2029",
        "\u202E", "\u202A", "\u2066", "\u2069", "\u200E", "\u200F", "\u061C", "\uFEFF", "\u200B", "\uD800", "\uDC00", "\uD83D\uDE00",
        "System.Collections.Generic.Dictionary<System.String, System.Int32>", "ntdll!LdrLoadDll+0x3b", "Foo`1+<>c__DisplayClass1_0",
    ];

    /// <summary>The input as UTF-16 (any code unit, lone surrogates included), split into the finding's strings.</summary>
    public static string[] Split(ReadOnlySpan<byte> input, int count)
    {
        var chars = new char[input.Length / 2];
        for (int i = 0; i < chars.Length; i++)
            chars[i] = (char)(input[2 * i] | input[2 * i + 1] << 8);
        string[] parts = new string(chars).Split(Separator);
        return [.. Enumerable.Range(0, count).Select(i => i < parts.Length ? parts[i] : "")];
    }

    public static byte[] Join(params string[] parts) => Encoding.Unicode.GetBytes(string.Join(Separator, parts));
}
