namespace DiagExt.Core.Targets;

/// <summary>Shortens CLR type names for people: namespaces dropped, generic arguments kept.</summary>
public static class TypeNames
{
    /// <summary>
    /// "System.Collections.Generic.Dictionary&lt;System.String, System.Int32&gt;" becomes "Dictionary&lt;String, Int32&gt;";
    /// the DAC's "Dictionary`2[[System.__Canon, System.Private.CoreLib],...]" becomes "Dictionary`2".
    /// </summary>
    public static string Short(string name)
    {
        int bracket = name.IndexOf("[[", StringComparison.Ordinal);
        if (bracket > 0)
            name = name[..bracket];
        var result = new System.Text.StringBuilder(name.Length);
        int segmentStart = 0;
        for (int i = 0; i <= name.Length; i++)
        {
            char c = i < name.Length ? name[i] : '\0';
            if (c is '<' or '>' or ',' or ' ' or '\0' or '[' or ']')
            {
                string segment = name[segmentStart..i];
                int plus = segment.IndexOf('+');
                int dot = (plus >= 0 ? segment[..plus] : segment).LastIndexOf('.');
                result.Append(segment[(dot + 1)..]);
                if (c != '\0')
                    result.Append(c);
                segmentStart = i + 1;
            }
        }
        return result.ToString();
    }
}
