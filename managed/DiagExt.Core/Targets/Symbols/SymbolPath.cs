namespace DiagExt.Core.Targets.Symbols;

/// <summary>
/// A symbol path in the debugger's syntax, the one _NT_SYMBOL_PATH and WinDbg's .sympath use: entries split by
/// ';', "srv*[CACHE*]URL" (also "symsrv*symsrv.dll*[CACHE*]URL"), "cache*DIR" giving a cache to the server
/// entries after it, and plain folders. A server entry without a cache downloads into the default cache.
/// </summary>
public sealed class SymbolPath
{
    /// <summary>Microsoft's public symbol server, which holds every released runtime's DAC.</summary>
    public static readonly Uri MicrosoftServer = new("https://msdl.microsoft.com/download/symbols/");

    /// <summary>Entries a path can hold before the rest is ignored: target-independent, but a pasted path can be long.</summary>
    private const int MaxEntries = 64;

    public IReadOnlyList<SymbolStore> Stores { get; }

    /// <summary>Where the path came from, for messages ("--symbol-path", "_NT_SYMBOL_PATH").</summary>
    public string Origin { get; }

    private SymbolPath(IReadOnlyList<SymbolStore> stores, string origin)
    {
        Stores = stores;
        Origin = origin;
    }

    public static SymbolPath Empty { get; } = new([], "nothing");

    public bool AllowsDownload => Stores.Any(s => s.IsRemote);

    /// <summary>
    /// Parses a path. Strict (a path the user typed for diagext): an entry it cannot use throws
    /// <see cref="FormatException"/> with one line naming it. Lenient (a variable set for other tools): such
    /// entries are skipped, so an unrelated _NT_SYMBOL_PATH never stops an analysis.
    /// </summary>
    public static SymbolPath Parse(string text, string origin, string defaultCache, bool strict = true)
    {
        var stores = new List<SymbolStore>();
        string? cache = null;
        foreach (string entry in text.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Take(MaxEntries))
        {
            try
            {
                AddEntry(entry, origin, defaultCache, stores, ref cache);
            }
            catch (FormatException) when (!strict)
            {
            }
        }
        return new SymbolPath(stores, origin);
    }

    private static void AddEntry(string entry, string origin, string defaultCache, List<SymbolStore> stores, ref string? cache)
    {
        string[] parts = entry.Split('*');
        string kind = parts[0].ToLowerInvariant();
        if (kind == "cache")
        {
            cache = parts.Length > 1 && parts[1].Length > 0 ? parts[1] : defaultCache;
            return;
        }
        if (kind is "srv" or "symsrv")
        {
            // "symsrv*symsrv.dll*..." names the DLL that would serve it; what follows is the same as srv*.
            string[] rest = parts.Skip(kind == "symsrv" ? 2 : 1).Where(p => p.Length > 0).ToArray();
            if (rest.Length == 0)
                throw new FormatException($"{origin}: '{entry}' names no server");
            // Every folder before the server is a downstream store; the first is where downloads go.
            foreach (string folder in rest[..^1])
                stores.Add(new SymbolStore(folder, null));
            stores.Add(TryServer(rest[^1], origin, out Uri? server)
                ? new SymbolStore(rest.Length > 1 ? rest[0] : cache ?? defaultCache, server)
                : new SymbolStore(rest[^1], null));
            return;
        }
        if (entry.Contains('*'))
            throw new FormatException($"{origin}: '{entry}' is not a symbol path entry diagext knows (srv*CACHE*URL, cache*DIR or a folder)");
        if (TryServer(entry, origin, out _))
            throw new FormatException($"{origin}: '{entry}' is a URL without srv*: write srv*{entry}");
        stores.Add(new SymbolStore(entry, null));
    }

    /// <summary>The path with <paramref name="server"/> (a download into the default cache) tried first.</summary>
    public SymbolPath WithServer(Uri server, string defaultCache, string origin) =>
        new([new SymbolStore(defaultCache, server), .. Stores], Stores.Count == 0 ? origin : $"{origin} and {Origin}");

    /// <summary>The path with the default cache searched last: what an earlier download left there is used without asking again (no network).</summary>
    public SymbolPath AndDefaultCache(string defaultCache) =>
        Stores.Any(s => s.Folder == defaultCache) ? this : new([.. Stores, new SymbolStore(defaultCache, null)], Origin);

    /// <summary>
    /// The default cache: $XDG_CACHE_HOME/diagext/symbols or ~/.cache/diagext/symbols on Linux and macOS,
    /// %LOCALAPPDATA%\diagext\symbols on Windows; reused across runs.
    /// </summary>
    public static string DefaultCache()
    {
        if (OperatingSystem.IsWindows())
            return Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData), "diagext", "symbols");
        string? xdg = Environment.GetEnvironmentVariable("XDG_CACHE_HOME");
        string root = !string.IsNullOrEmpty(xdg) && Path.IsPathRooted(xdg)
            ? xdg
            : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".cache");
        return Path.Combine(root, "diagext", "symbols");
    }

    /// <summary>A server URL: http or https only (a file share or folder in a srv* entry is read as a folder).</summary>
    private static bool TryServer(string text, string origin, out Uri? server)
    {
        server = null;
        if (!text.Contains("://", StringComparison.Ordinal))
            return false;
        if (!Uri.TryCreate(text, UriKind.Absolute, out Uri? uri) || uri.Scheme is not ("http" or "https") || uri.Host.Length == 0)
            throw new FormatException($"{origin}: '{text}' is not an http or https URL");
        server = uri.AbsoluteUri.EndsWith('/') ? uri : new Uri(uri.AbsoluteUri + "/");
        return true;
    }
}
