using System.Globalization;
using System.Text.RegularExpressions;

namespace DiagExt.Cli.CommandLine;

/// <summary>Parses the durations ("90", "90s", "1.5m", "500ms", "1h") and sizes ("512M", "4G") options take.</summary>
public static partial class Quantities
{
    public static TimeSpan ParseDuration(string option, string text)
    {
        Match m = DurationPattern().Match(text.Trim());
        if (!m.Success || !double.TryParse(m.Groups[1].Value, NumberStyles.Float, CultureInfo.InvariantCulture, out double value) || value <= 0)
            throw new UsageException($"{option} expects a duration such as 90s, 5m or 1h, not '{text}'");
        double seconds = m.Groups[2].Value.ToLowerInvariant() switch
        {
            "ms" => value / 1000,
            "m" or "min" => value * 60,
            "h" => value * 3600,
            _ => value,
        };
        return TimeSpan.FromSeconds(Math.Min(seconds, TimeSpan.FromDays(7).TotalSeconds));
    }

    public static long ParseSize(string option, string text)
    {
        Match m = SizePattern().Match(text.Trim());
        if (!m.Success || !double.TryParse(m.Groups[1].Value, NumberStyles.Float, CultureInfo.InvariantCulture, out double value) || value <= 0)
            throw new UsageException($"{option} expects a size such as 512M or 4G, not '{text}'");
        double factor = char.ToUpperInvariant(m.Groups[2].Value.FirstOrDefault('M')) switch
        {
            'K' => 1024,
            'G' => 1024.0 * 1024 * 1024,
            'T' => 1024.0 * 1024 * 1024 * 1024,
            _ => 1024.0 * 1024,
        };
        return (long)Math.Min(value * factor, long.MaxValue / 2);
    }

    [GeneratedRegex(@"^(\d+(?:\.\d+)?)\s*(ms|s|m|min|h)?$", RegexOptions.IgnoreCase)]
    private static partial Regex DurationPattern();

    [GeneratedRegex(@"^(\d+(?:\.\d+)?)\s*([KMGT])?i?B?$", RegexOptions.IgnoreCase)]
    private static partial Regex SizePattern();
}
