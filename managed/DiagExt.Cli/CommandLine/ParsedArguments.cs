namespace DiagExt.Cli.CommandLine;

/// <summary>A command line split into positional arguments and options, checked against the command's specs.</summary>
public sealed class ParsedArguments
{
    private readonly Dictionary<string, string?> _options;

    internal ParsedArguments(IReadOnlyList<string> positionals, Dictionary<string, string?> options)
    {
        Positionals = positionals;
        _options = options;
    }

    public IReadOnlyList<string> Positionals { get; }

    public bool Has(string name) => _options.ContainsKey(name);

    public string? Value(string name) => _options.GetValueOrDefault(name);

    public int? IntValue(string name)
    {
        if (Value(name) is not { } text)
            return null;
        return int.TryParse(text, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out int value)
            ? value
            : throw new UsageException($"{name} expects a number, not '{text}'");
    }
}
