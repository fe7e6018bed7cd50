namespace DiagExt.Cli.CommandLine;

/// <summary>
/// What a command reads: its positional arguments and the options given (by their <see cref="OptionSpec.Name"/>,
/// null for a flag or an optional value not given), checked against its specs by <see cref="SystemCommandLineAdapter"/>.
/// </summary>
public sealed class ParsedArguments
{
    public static ParsedArguments None { get; } = new([], []);

    private readonly Dictionary<string, string?> _options;

    internal ParsedArguments(IReadOnlyList<string> positionals, Dictionary<string, string?> options)
    {
        Positionals = positionals;
        _options = options;
    }

    public IReadOnlyList<string> Positionals { get; }

    public bool Has(string name) => _options.ContainsKey(name);

    public string? Value(string name) => _options.GetValueOrDefault(name);

    public TimeSpan? DurationValue(string name) => Value(name) is { } text ? Quantities.ParseDuration(name, text) : null;

    public long? SizeValue(string name) => Value(name) is { } text ? Quantities.ParseSize(name, text) : null;

    /// <summary>The same arguments with <paramref name="name"/> set and other positionals: how "attach PID" becomes "--pid PID".</summary>
    internal ParsedArguments With(string name, string? value, IReadOnlyList<string> positionals) =>
        new(positionals, new Dictionary<string, string?>(_options) { [name] = value });

    /// <summary>The same arguments without <paramref name="name"/> and with other positionals: how watch turns "--pid N" into the dump it wrote.</summary>
    internal ParsedArguments Without(string name, IReadOnlyList<string> positionals)
    {
        var options = new Dictionary<string, string?>(_options);
        options.Remove(name);
        return new(positionals, options);
    }

    public int? IntValue(string name)
    {
        if (Value(name) is not { } text)
            return null;
        return int.TryParse(text, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out int value)
            ? value
            : throw new UsageException($"{name} expects a number, not '{text}'");
    }
}
