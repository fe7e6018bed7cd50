using DiagExt.Core;
using DiagExt.Cli.CommandLine;
using DiagExt.Core.Errors;
using DiagExt.Core.Rendering;

namespace DiagExt.Cli.Commands;

/// <summary>"diagext version": the tool's version and the ClrMD it reads dumps with.</summary>
public sealed class VersionCommand : ICommand
{
    /// <summary>"diagext --version", the same as "diagext version".</summary>
    public static readonly OptionSpec Flag = new("--version", null, "show diagext's version");

    public string Name => "version";

    public string Summary => "show diagext's version";

    public string Usage => "diagext version";

    public string Details => "Prints diagext's version and the versions of ClrMD and .NET it runs on.";

    public IReadOnlyList<OptionSpec> Options => [CommonOptions.Help];

    public ExitCode Execute(ParsedArguments arguments, CommandIo io)
    {
        string clrmd = typeof(Microsoft.Diagnostics.Runtime.DataTarget).Assembly.GetName().Version?.ToString() ?? "?";
        io.Out.WriteLine($"diagext {ToolVersion.Current} (ClrMD {clrmd}, .NET {Environment.Version})");
        return ExitCode.NothingFound;
    }
}
