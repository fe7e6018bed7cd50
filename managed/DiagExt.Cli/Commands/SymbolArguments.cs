using DiagExt.Cli.CommandLine;
using DiagExt.Core.Targets.Symbols;

namespace DiagExt.Cli.Commands;

/// <summary>
/// Where a DAC may come from when it is not beside an installed runtime. Downloads happen only when the user
/// asked: --symbol-server, or a srv* entry in --symbol-path, DIAGEXT_SYMBOL_PATH or _NT_SYMBOL_PATH (the first
/// of these three that is set wins, as WinDbg users expect of _NT_SYMBOL_PATH).
/// </summary>
public static class SymbolArguments
{
    public const string PathVariable = "DIAGEXT_SYMBOL_PATH";
    public const string DebuggerPathVariable = "_NT_SYMBOL_PATH";

    public static readonly OptionSpec Server = new(
        "--symbol-server", "URL",
        $"download a missing DAC from this symbol server (default {SymbolPath.MicrosoftServer}) into the cache ({CacheHint}); nothing is downloaded without this or a srv* symbol path",
        OptionalValueIf: next => next.StartsWith("http://", StringComparison.OrdinalIgnoreCase) || next.StartsWith("https://", StringComparison.OrdinalIgnoreCase));

    public static readonly OptionSpec Path = new(
        "--symbol-path", "PATH",
        $"where to look for a missing DAC, in the debugger's syntax: folders, cache*DIR, srv*CACHE*URL (a server entry allows downloads); default ${PathVariable}, else ${DebuggerPathVariable}");

    public static readonly OptionSpec Timeout = new(
        "--symbol-timeout", "DURATION", "give up a download when the symbol server stays silent this long (default 30s)");

    public static IReadOnlyList<OptionSpec> All { get; } = [Server, Path, Timeout];

    private const string CacheHint = "~/.cache/diagext/symbols, or %LOCALAPPDATA%\\diagext\\symbols on Windows";

    public static SymbolPath Resolve(ParsedArguments arguments)
    {
        string cache = SymbolPath.DefaultCache();
        SymbolPath path = SymbolPath.Empty;
        try
        {
            if (arguments.Value(Path.Name) is { } typed)
                path = SymbolPath.Parse(typed, Path.Name, cache);
            else if (Environment.GetEnvironmentVariable(PathVariable) is { Length: > 0 } ours)
                path = SymbolPath.Parse(ours, PathVariable, cache);
            else if (Environment.GetEnvironmentVariable(DebuggerPathVariable) is { Length: > 0 } debugger)
                path = SymbolPath.Parse(debugger, DebuggerPathVariable, cache, strict: false);
        }
        catch (FormatException e)
        {
            throw new UsageException(e.Message);
        }
        if (!arguments.Has(Server.Name))
            return path.AndDefaultCache(cache);
        string? url = arguments.Value(Server.Name);
        Uri server = SymbolPath.MicrosoftServer;
        if (url is not null && !(Uri.TryCreate(url, UriKind.Absolute, out server!) && server.Scheme is "http" or "https" && server.Host.Length > 0))
            throw new UsageException($"--symbol-server {url}: give an http or https URL");
        if (!server.AbsoluteUri.EndsWith('/'))
            server = new Uri(server.AbsoluteUri + "/");
        return path.WithServer(server, cache, Server.Name).AndDefaultCache(cache);
    }

    public static TimeSpan StallTimeout(ParsedArguments arguments) => arguments.DurationValue(Timeout.Name) ?? TimeSpan.FromSeconds(30);

    /// <summary>The symbol options as given, for a child diagext (batch workers) to see the same path.</summary>
    public static IEnumerable<string> Forward(ParsedArguments arguments)
    {
        foreach (OptionSpec spec in All)
        {
            if (!arguments.Has(spec.Name))
                continue;
            yield return arguments.Value(spec.Name) is { } value ? $"{spec.Name}={value}" : spec.Name;
        }
    }
}
