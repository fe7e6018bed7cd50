namespace DiagExt.Cli.CommandLine;

/// <summary>
/// One option a command accepts: "--pid N". Declared beside the command that uses it; <see cref="SystemCommandLineAdapter"/>
/// makes it a System.CommandLine option, <see cref="Commands.HelpCommand"/> shows it.
/// </summary>
/// <param name="OptionalValueIf">
/// Makes the value optional: "--name=VALUE" always gives one; "--name NEXT" takes NEXT only when this
/// accepts it (so "--json report.json" names a file but "--json a.dmp" leaves a.dmp a dump).
/// </param>
/// <param name="Aliases">Other names for the same option, short ("-p") or long ("--process-id", as dotnet-dump spells it).</param>
public sealed record OptionSpec(string Name, string? ValueName, string Help, IReadOnlyList<string>? Aliases = null, Func<string, bool>? OptionalValueIf = null)
{
    public bool TakesValue => ValueName is not null;

    /// <summary>Every name it answers to: <see cref="Name"/> and its aliases.</summary>
    public IEnumerable<string> Names => Aliases is null ? [Name] : Aliases.Prepend(Name);

    public bool ValueIsOptional => OptionalValueIf is not null;

    public string Usage => ValueName is null ? Name : ValueIsOptional ? $"{Name} [{ValueName}]" : $"{Name} {ValueName}";
}
