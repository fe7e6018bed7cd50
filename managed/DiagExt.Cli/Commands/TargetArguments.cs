using DiagExt.Cli.CommandLine;
using DiagExt.Core.Errors;
using DiagExt.Core.Targets;
using DiagExt.Core.Targets.Sources;

namespace DiagExt.Cli.Commands;

/// <summary>Turns "&lt;dump&gt;" (a dump, a .gz, a .zip with --entry) or "--pid N [--snapshot]" (plus --dac) into an opened target.</summary>
public static class TargetArguments
{
    /// <param name="liveSampleWindow">How long to watch a live process before reading it, when a detector asks for longer than the default.</param>
    public static Target Open(ParsedArguments arguments, string command, CancellationToken cancellation, TimeSpan liveSampleWindow = default)
    {
        int? pid = arguments.IntValue(CommonOptions.Pid.Name);
        string? entry = arguments.Value(CommonOptions.Entry.Name);
        bool noSuspend = arguments.Has(CommonOptions.NoSuspend.Name);
        if (noSuspend && (pid is null || arguments.Has(CommonOptions.Snapshot.Name)))
            throw new UsageException("--no-suspend goes with --pid N alone (not with a dump or --snapshot)");
        if (arguments.Value(CommonOptions.Dac.Name) is { } dac && !File.Exists(dac))
            throw new DiagExtException($"{CommonOptions.Dac.Name} {dac}: no such file");
        if (pid is < 1)
            throw new UsageException($"--pid {pid}: a process id is a positive number");
        int? threads = arguments.IntValue(CommonOptions.Threads.Name);
        if (threads is < 1)
            throw new UsageException($"--threads {threads}: give at least 1");
        var options = new TargetOptions
        {
            DacPath = arguments.Value(CommonOptions.Dac.Name),
            Symbols = SymbolArguments.Resolve(arguments),
            SymbolTimeout = SymbolArguments.StallTimeout(arguments),
            Threads = threads,
            SuspendLiveProcess = !noSuspend,
            Remedies = RemedyWords.Instance,
        };
        if (liveSampleWindow > options.LiveCpuSampleWindow)
            options = options with { LiveCpuSampleWindow = liveSampleWindow };
        if (pid is not null)
        {
            if (arguments.Positionals.Count > 0)
                throw new UsageException("give a dump or --pid, not both");
            if (entry is not null)
                throw new UsageException("--entry names a dump inside a .zip, not a process");
            return arguments.Has(CommonOptions.Snapshot.Name)
                ? TargetOpener.Snapshot(pid.Value, options, cancellation)
                : TargetOpener.Attach(pid.Value, options, cancellation);
        }
        if (arguments.Has(CommonOptions.Snapshot.Name))
            throw new UsageException("--snapshot goes with --pid N");
        return arguments.Positionals.Count switch
        {
            0 => throw new UsageException($"{command} needs a dump file or --pid N"),
            1 => TargetOpener.OpenDump(Source(arguments.Positionals[0], entry), options, cancellation),
            _ => throw new UsageException($"{command} takes one dump; use 'diagext analyze' for several"),
        };
    }

    /// <summary>The user's name for the target, for messages that come before it is open.</summary>
    public static string Describe(ParsedArguments arguments) =>
        arguments.IntValue(CommonOptions.Pid.Name) is int pid ? $"process {pid}"
        : arguments.Positionals.Count > 0 ? Source(arguments.Positionals[0], arguments.Value(CommonOptions.Entry.Name)).DisplayName
        : "target";

    private static DumpSource Source(string path, string? entry) =>
        entry is null ? new DumpSource(path) : new DumpSource(path, DumpContainer.Zip, entry);
}
