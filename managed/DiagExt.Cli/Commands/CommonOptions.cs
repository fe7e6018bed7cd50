using DiagExt.Cli.CommandLine;

namespace DiagExt.Cli.Commands;

/// <summary>The options every analysing command shares: which target, which DAC, which output, how long.</summary>
public static class CommonOptions
{
    public static readonly OptionSpec Pid = new("--pid", "N", "analyse the live process N instead of a dump (suspended only while it is read)", ["-p", "--process-id"]);
    public static readonly OptionSpec Name = new("--name", "NAME", "the live .NET process with this name, as 'diagext ps' lists it (an error if none or several)", ["-n"]);
    public static readonly OptionSpec NoSuspend = new("--no-suspend", null, "with --pid: read the process as it is, neither stopping it nor taking a snapshot, because a debugger has already stopped it (the WinDbg extension passes this)");
    public static readonly OptionSpec Snapshot = new("--snapshot", null, "with --pid: have the process's own createdump write a dump (it pauses only while the dump is written) and analyse that");
    public static readonly OptionSpec Dac = new("--dac", "PATH", "the DAC (libmscordaccore.so / mscordaccore.dll) of the target's exact runtime, when it is not beside an installed runtime");
    public static readonly OptionSpec Entry = new("--entry", "NAME", "the dump inside a .zip to analyse (not needed when the zip holds only one)");
    public static readonly OptionSpec Format = new("--format", "text|dml|json", "output format (default text; dml with --dml-console, which the WinDbg extension passes: then any other format is escaped as DML text)");

    /// <summary>
    /// "--json" alone prints JSON on stdout. A value makes 'analyze' write its batch report to a file; it is
    /// taken from "--json=FILE", or from the next argument only if that ends in ".json", so "--json a.dmp"
    /// never overwrites a dump.
    /// </summary>
    public static readonly OptionSpec Json = new(
        "--json",
        "FILE",
        "alone: JSON on stdout, one object with a findings array (like --format json). 'analyze' with FILE (ending in .json, or --json=FILE): write the batch report there",
        OptionalValueIf: next => next.EndsWith(".json", StringComparison.OrdinalIgnoreCase));

    public static readonly OptionSpec Timeout = new("--timeout", "DURATION", "give up after this long, e.g. 90s or 5m (a batch: per dump, default 10m; one target: no default); a live target is let go at once");
    public static readonly OptionSpec Threads = new("--threads", "N", "threads that read the target at once: with 2 or more the heap pass runs beside the detectors (default: one per core; give 1 when several diagext run at once)");
    public static readonly OptionSpec Verbose = new("--verbose", null, "say more: where a failed detector failed (its stack), the evidence a detector weighed and set aside, and where the time went (phase lines: the heap pass, each detector and its share of the pass)", ["-v"]);
    public static readonly OptionSpec Help = new("--help", null, "show this command's help", ["-h", "-?"]);

    public static IReadOnlyList<OptionSpec> Target { get; } = [Pid, Name, NoSuspend, Snapshot, Dac, .. SymbolArguments.All, Entry, Format, Json, Timeout, Threads, Verbose, Help];
}
