using System.Text.Json;
using System.Text.Json.Serialization;

namespace DiagExt.Core.Reports;

/// <summary>A duration as a number of seconds in JSON ("userCpuSeconds": 1.5): the records keep a TimeSpan.</summary>
public sealed class SecondsJsonConverter : JsonConverter<TimeSpan>
{
    public override TimeSpan Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        double seconds = reader.GetDouble();
        // A child's JSON is read back by the batch: a number no TimeSpan holds is bad input, not a crash.
        if (!double.IsFinite(seconds) || Math.Abs(seconds) > TimeSpan.MaxValue.TotalSeconds)
            throw new JsonException($"{seconds} seconds is not a duration");
        return TimeSpan.FromSeconds(seconds);
    }

    public override void Write(Utf8JsonWriter writer, TimeSpan value, JsonSerializerOptions options) =>
        writer.WriteNumberValue(value.TotalSeconds);
}
