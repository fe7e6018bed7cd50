using DiagExt.Core.Catalog;
using DiagExt.Cli.Batch;
using DiagExt.Cli.CommandLine;
using DiagExt.Core.Analysis;
using DiagExt.Core.Errors;

namespace DiagExt.Cli.Commands;

/// <summary>
/// "diagext analyze": every detector DiagExt has, one heap pass shared by all. On one dump or process it
/// prints that target's detailed report; on several dumps, folders or globs it runs a batch (see <see cref="BatchMode"/>).
/// </summary>
public sealed class AnalyzeCommand : ICommand
{
    public string Name => "analyze";

    public string Summary => "run every detector on a dump or live process, or on every dump in files, folders and globs";

    public bool InDebugger => true;

    // "!analyze -v" is ext.dll's crash analysis, the most typed command in WinDbg: in the debugger this is "!diagext".
    public bool OwnExport => false;

    public string Usage => "diagext analyze <dump> | --pid N [--snapshot] | <dumps, folders, globs>... [options]";

    public string Details =>
        "Runs every detector that applies to the target, with one pass over the heap shared by all of them. " +
        "Detectors that need something the target lacks (a .NET runtime, a Windows minidump), or that have nothing to look " +
        "for in it (wcfhang where no WCF client is loaded), are listed as skipped, with the reason, and so are those --skip names " +
        "(they are not run, and the heap pass does none of their work; a batch passes --skip on to each dump's analysis). " +
        "--skip naming an unknown detector, or every detector, is a usage error.\n\n" +
        "Batch: given several dumps, a folder (walked recursively), a glob (quoted: 'dumps/*.dmp', 'crashes/**/core.*') " +
        "or a .zip, it finds every dump by content (Windows minidumps, Linux cores, and those inside .gz and .zip files, " +
        "unpacked in memory up to 512 MB, else into a temp file deleted at once), analyses identical dumps once, and runs " +
        "the analyses in parallel, each in its own diagext process so that a dump that crashes or hangs the analyser " +
        "cannot stop the batch (--timeout, default 10m per dump). Progress goes to stderr (a live line on a terminal, " +
        "plain lines otherwise, nothing with --quiet); the summary table goes to stdout, or with --json alone the batch " +
        "JSON document (schemaVersion, findings each with its dump, one entry per dump, totals). Reports: --json FILE.json " +
        "(or --json=FILE), --markdown FILE, --html FILE. Files in folders that are not dumps are listed as skipped; a named " +
        "file that is not a dump counts as a failure.\n\n" +
        "Batch exit code: 2 if no dump could be analysed, else 1 if any hazard was found, else 3 if a detector failed on " +
        "some dump (the reports list which), else 0.";

    public IReadOnlyList<OptionSpec> Options { get; } = [.. CommonOptions.Target, SkipOption.Spec, .. BatchOptions.All];

    public ExitCode Execute(ParsedArguments arguments, CommandIo io)
    {
        IReadOnlyList<IDetector> detectors = DetectorCatalog.CreateAll();
        IReadOnlyDictionary<string, string> leftOut = SkipOption.LeftOut(arguments, detectors);
        return BatchMode.Applies(arguments)
            ? BatchRun.Execute(arguments, io)
            : DetectorRun.Execute(Name, detectors, arguments, io, leftOut);
    }
}
