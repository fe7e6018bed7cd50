namespace DiagExt.Core.Errors;

/// <summary>
/// What a user can do about a problem, as the core knows it: it names the remedy, the front end words it in its own
/// terms (the command line's options: <c>Cli/Commands/RemedyWords</c>), so no option name is spelled in the core.
/// </summary>
public enum Remedy
{
    None,

    /// <summary>Give the path of the DAC of the target's runtime (words end before the runtime's version).</summary>
    GiveDac,

    /// <summary>Give the DAC's path, or allow the download from Microsoft's symbol server (words end before its URL).</summary>
    GiveOrDownloadDac,

    /// <summary>Read a live process through a snapshot written by its own createdump.</summary>
    UseSnapshot,

    /// <summary>Read the live process itself, not a snapshot.</summary>
    ReadLiveWithoutSnapshot,

    /// <summary>Name one process by its id.</summary>
    PickProcessId,

    /// <summary>Name one dump inside an archive (or analyse them all in a batch).</summary>
    NameArchiveEntry,

    /// <summary>Write a baseline file of the sites found.</summary>
    WriteBaseline,
}

/// <summary>How a front end words a <see cref="Remedy"/>; <see cref="Plain"/> for a library user with no options.</summary>
public interface IRemedyWords
{
    string For(Remedy remedy);

    public static IRemedyWords Plain { get; } = new PlainRemedyWords();

    private sealed class PlainRemedyWords : IRemedyWords
    {
        public string For(Remedy remedy) => remedy switch
        {
            Remedy.GiveDac => "give the path of the DAC of runtime",
            Remedy.GiveOrDownloadDac => "give the DAC's path, or a symbol path naming Microsoft's symbol server, which has it at",
            Remedy.UseSnapshot => "read it through a snapshot (createdump) instead",
            Remedy.ReadLiveWithoutSnapshot => "read it live instead",
            Remedy.PickProcessId => "name one by its process id",
            Remedy.NameArchiveEntry => "name the entry to read, or analyse the archive as a batch",
            Remedy.WriteBaseline => "write one first",
            _ => "",
        };
    }
}
