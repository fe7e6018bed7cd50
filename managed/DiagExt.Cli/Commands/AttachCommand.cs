using DiagExt.Core.Catalog;
using DiagExt.Cli.CommandLine;
using DiagExt.Core.Analysis;
using DiagExt.Core.Errors;

namespace DiagExt.Cli.Commands;

/// <summary>"diagext attach &lt;pid&gt;": 'diagext analyze --pid PID', for people who think of it as attaching.</summary>
public sealed class AttachCommand : ICommand
{
    public string Name => "attach";

    public string Summary => "run every detector on a running process, which keeps running afterwards";

    public string Usage => "diagext attach <pid> | -p N | -n NAME [--snapshot] [--dac PATH] [--timeout DURATION] [--format text|dml|json | --json]";

    public string Details =>
        "Same as 'diagext analyze --pid PID'. On Linux every thread of the process is stopped (PTRACE_SEIZE, no signal) " +
        "only while diagext reads it, and let go when it is done, on Ctrl+C, on an error, at --timeout, and also if diagext " +
        "itself is killed (the kernel releases seized threads). --snapshot instead has the process's own runtime write a dump " +
        "with createdump (the process pauses only while it is written) and analyses that. On Windows, attach reads a " +
        "PssCaptureSnapshot clone of the process (ClrMD), so a killed diagext can never leave it suspended. " +
        "Errors: no such process; not permitted (run as the process's user or root, or allow ptrace); " +
        "not a .NET process (the detectors that need .NET are skipped, and if none is left that is the error).";

    public IReadOnlyList<OptionSpec> Options { get; } =
        [CommonOptions.Pid, CommonOptions.Name, CommonOptions.Snapshot, CommonOptions.Dac, .. SymbolArguments.All, CommonOptions.Format, CommonOptions.Json, CommonOptions.Timeout, CommonOptions.Help];

    public ExitCode Execute(ParsedArguments arguments, CommandIo io)
    {
        // "attach 1234", "attach --pid 1234" and "attach -n app" (made --pid already) are one thing.
        if (arguments.Has(CommonOptions.Pid.Name))
        {
            if (arguments.Positionals.Count > 0)
                throw new UsageException("give the process once: diagext attach <pid>, or --pid N, or --name NAME");
            return DetectorRun.Execute(Name, DetectorCatalog.CreateAll(), arguments, io);
        }
        if (arguments.Positionals.Count != 1)
            throw new UsageException("attach needs one process id: diagext attach <pid>");
        ParsedArguments asPid = arguments.With(CommonOptions.Pid.Name, arguments.Positionals[0], []);
        return DetectorRun.Execute(Name, DetectorCatalog.CreateAll(), asPid, io);
    }
}
