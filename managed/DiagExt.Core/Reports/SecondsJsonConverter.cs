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
        // To the nearest tick: TimeSpan.FromSeconds truncates, so 0.4099999 s (4,099,999 ticks, as written) would read
        // back as 4,099,998 ticks and a batch would show its worker's CPU time changed (seen on a live process).
        return TimeSpan.FromTicks((long)Math.Round(seconds * TimeSpan.TicksPerSecond));
    }

    public override void Write(Utf8JsonWriter writer, TimeSpan value, JsonSerializerOptions options) =>
        writer.WriteNumberValue(value.TotalSeconds);
}
