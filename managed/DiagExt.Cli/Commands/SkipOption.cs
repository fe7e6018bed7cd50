using DiagExt.Cli.CommandLine;
using DiagExt.Core.Analysis;

namespace DiagExt.Cli.Commands;

/// <summary>
/// "analyze --skip hang,wcfhang": detectors left out entirely, neither run nor given a share of the heap pass (a big
/// batch that does not need one, and the bench, which measures each detector's cost against its absence). Checked
/// before a child or a batch starts, so a mistyped name is one line and exit code 2, not one failure per dump.
/// </summary>
public static class SkipOption
{
    /// <summary>The reason a left-out detector's outcome gives: "hang: skipped: left out by --skip".</summary>
    public const string Reason = "left out by --skip";

    public static readonly OptionSpec Spec = new("--skip", "DETECTOR[,...]", "leave these detectors out: neither run nor served by the heap pass, and listed as skipped (e.g. --skip hang,ctororder)");

    /// <summary>The detectors named by --skip, each with <see cref="Reason"/>; empty without it.</summary>
    public static IReadOnlyDictionary<string, string> LeftOut(ParsedArguments arguments, IReadOnlyList<IDetector> detectors) =>
        Names(arguments, detectors).ToDictionary(name => name, _ => Reason, StringComparer.Ordinal);

    /// <summary>The names given, checked against <paramref name="detectors"/>; a usage error for an unknown name, or for leaving none to run.</summary>
    public static IReadOnlyList<string> Names(ParsedArguments arguments, IReadOnlyList<IDetector> detectors)
    {
        if (arguments.Value(Spec.Name) is not { } value)
            return [];
        string[] names = value.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
        if (names.Length == 0)
            throw new UsageException($"{Spec.Name} needs detector names, e.g. {Spec.Name} hang");
        IEnumerable<string> known = detectors.Select(d => d.Name);
        if (names.FirstOrDefault(n => !known.Contains(n, StringComparer.Ordinal)) is { } unknown)
            throw new UsageException($"{Spec.Name}: unknown detector '{unknown}'{Suggestion.For(unknown, known)} (detectors: {string.Join(", ", known)})");
        string[] distinct = [.. names.Distinct(StringComparer.Ordinal)];
        // Nothing left to run is no analysis at all: a usage error, as a command with no detector would be.
        if (distinct.Length == detectors.Count)
            throw new UsageException($"{Spec.Name} leaves no detector to run");
        return distinct;
    }
}
