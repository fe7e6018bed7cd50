using System.Diagnostics.CodeAnalysis;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace DiagExt.Core;

/// <summary>
/// An address in the target (an object, a native structure, a method table), as rust-minidump's <c>Address</c>:
/// a number until it is shown, and shown one way everywhere ("0x" and lower-case hex, no padding, as SOS and
/// WinDbg print them). JSON carries it as that string, so reports stay readable and the schema's pattern holds.
/// </summary>
[JsonConverter(typeof(AddressJsonConverter))]
public readonly record struct Address(ulong Value) : ISpanFormattable
{
    public static implicit operator Address(ulong value) => new(value);

    public bool IsNull => Value == 0;

    public override string ToString() => $"0x{Value:x}";

    public string ToString(string? format, IFormatProvider? formatProvider) => ToString();

    public bool TryFormat(Span<char> destination, out int charsWritten, ReadOnlySpan<char> format, IFormatProvider? provider) =>
        destination.TryWrite($"0x{Value:x}", out charsWritten);

    /// <summary>Reads what <see cref="ToString()"/> wrote ("0x" then hex digits); false for anything else.</summary>
    public static bool TryParse(string? text, [NotNullWhen(true)] out Address? address)
    {
        address = null;
        if (text is null || !text.StartsWith("0x", StringComparison.Ordinal) || text.Length is < 3 or > 18 ||
            !ulong.TryParse(text.AsSpan(2), System.Globalization.NumberStyles.AllowHexSpecifier, null, out ulong value))
            return false;
        address = new Address(value);
        return true;
    }
}

/// <summary>An <see cref="Address"/> as its "0x..." string in JSON; anything else there is a JSON error.</summary>
public sealed class AddressJsonConverter : JsonConverter<Address>
{
    public override Address Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        reader.TokenType == JsonTokenType.String && Address.TryParse(reader.GetString(), out Address? address)
            ? address.Value
            : throw new JsonException("an address is a string \"0x\" followed by hex digits");

    public override void Write(Utf8JsonWriter writer, Address value, JsonSerializerOptions options) =>
        writer.WriteStringValue(value.ToString());
}
