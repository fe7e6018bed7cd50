using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace DiagExt.Core.Rendering;

/// <summary>
/// A JSON value as a person reads it: objects indented with real line breaks, a list of plain values on one line
/// (<c>[0, 5, 12]</c>, not one number per line), and only the escapes JSON itself requires (quotes, backslashes,
/// control characters). The report's own JSON also escapes markup and non-ASCII characters (\u003c, \u00e9) so that it
/// is safe pasted anywhere; a page that shows this text must escape it for its markup (<see cref="HtmlEscaper"/>, line
/// by line), which is what keeps a string from the target inert there.
/// </summary>
public static class ReadableJson
{
    public static string Write(JsonElement value)
    {
        var text = new StringBuilder();
        Write(value, text, 0);
        return text.ToString();
    }

    // Recursion is bounded: the report's JSON is read and written with a maximum depth (ReportJson).
    private static void Write(JsonElement value, StringBuilder text, int depth)
    {
        string inner = new(' ', 2 * (depth + 1)), outer = new(' ', 2 * depth);
        switch (value.ValueKind)
        {
            case JsonValueKind.Object when value.EnumerateObject().Any():
                text.Append("{\n");
                bool first = true;
                foreach (JsonProperty property in value.EnumerateObject())
                {
                    text.Append(first ? "" : ",\n").Append(inner).Append(Quoted(property.Name)).Append(": ");
                    Write(property.Value, text, depth + 1);
                    first = false;
                }
                text.Append('\n').Append(outer).Append('}');
                break;
            case JsonValueKind.Array when value.EnumerateArray().Any(IsNested):
                text.Append("[\n");
                int index = 0;
                foreach (JsonElement item in value.EnumerateArray())
                {
                    text.Append(index++ == 0 ? "" : ",\n").Append(inner);
                    Write(item, text, depth + 1);
                }
                text.Append('\n').Append(outer).Append(']');
                break;
            case JsonValueKind.Array:
                text.Append('[').AppendJoin(", ", value.EnumerateArray().Select(Plain)).Append(']');
                break;
            default:
                text.Append(Plain(value));
                break;
        }
    }

    private static bool IsNested(JsonElement value) => value.ValueKind is JsonValueKind.Object or JsonValueKind.Array;

    private static string Plain(JsonElement value) => value.ValueKind switch
    {
        JsonValueKind.String => Quoted(value.GetString()!),
        JsonValueKind.Object => "{}",
        JsonValueKind.Array => "[]",
        _ => value.GetRawText(),
    };

    private static string Quoted(string text) => $"\"{JsonEncodedText.Encode(text, JavaScriptEncoder.UnsafeRelaxedJsonEscaping).Value}\"";
}
