using DiagExt.Core.Errors;

namespace DiagExt.Cli.Commands;

/// <summary>The command line's words for what the core says a user can do: the options that do it.</summary>
public sealed class RemedyWords : IRemedyWords
{
    public static RemedyWords Instance { get; } = new();

    public string For(Remedy remedy) => remedy switch
    {
        Remedy.GiveDac => $"pass {CommonOptions.Dac.Name} PATH to the DAC of runtime",
        Remedy.GiveOrDownloadDac => $"pass {CommonOptions.Dac.Name} PATH, or {SymbolArguments.Server.Name} to download it from",
        Remedy.UseSnapshot => $"try {CommonOptions.Snapshot.Name}",
        Remedy.ReadLiveWithoutSnapshot => $"analyse it live without {CommonOptions.Snapshot.Name}",
        Remedy.PickProcessId => $"pick one with {CommonOptions.Pid.Name}",
        Remedy.NameArchiveEntry => $"name one with {CommonOptions.Entry.Name} NAME, or run 'diagext analyze' on the zip for all of them",
        Remedy.WriteBaseline => $"write one with {FileScanCommand.WriteBaseline.Name} FILE",
        _ => "",
    };

    /// <summary>An error's message with its remedy worded after it.</summary>
    public static string Message(DiagExtException error) =>
        error.Remedy == Remedy.None ? error.Message : $"{error.Message}; {Instance.For(error.Remedy)}";
}
