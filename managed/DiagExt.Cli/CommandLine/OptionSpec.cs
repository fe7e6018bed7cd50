namespace DiagExt.Cli.CommandLine;

/// <summary>One option a command accepts: "--pid N". Declared beside the command that uses it.</summary>
public sealed record OptionSpec(string Name, string? ValueName, string Help, string? Alias = null)
{
    public bool TakesValue => ValueName is not null;

    public string Usage => ValueName is null ? Name : $"{Name} {ValueName}";
}
