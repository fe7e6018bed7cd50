using DiagExt.Cli.CommandLine;

namespace DiagExt.Cli.Commands;

/// <summary>The options every analysing command shares: which target, which DAC, which output.</summary>
public static class CommonOptions
{
    public static readonly OptionSpec Pid = new("--pid", "N", "analyse the live process N instead of a dump (suspended only while it is read)");
    public static readonly OptionSpec Dac = new("--dac", "PATH", "the DAC (libmscordaccore.so / mscordaccore.dll) of the target's exact runtime, when it is not beside an installed runtime");
    public static readonly OptionSpec Format = new("--format", "text|dml|json", "output format (default text; dml is what the WinDbg extension uses)");
    public static readonly OptionSpec Json = new("--json", null, "same as --format json: one JSON object with a findings array");
    public static readonly OptionSpec Help = new("--help", null, "show this command's help", "-h");

    public static IReadOnlyList<OptionSpec> Target { get; } = [Pid, Dac, Format, Json, Help];
}
