using System.Globalization;

namespace DiagExt.Core.Targets.Live;

/// <summary>Fields of /proc/PID/status that decide who may trace whom (Linux); null where /proc does not say.</summary>
internal static class ProcStatus
{
    private const int CapSysPtrace = 19;

    public static string? Field(string process, string name) =>
        Read($"/proc/{process}/status")?.Split('\n').FirstOrDefault(l => l.StartsWith(name, StringComparison.Ordinal))?[name.Length..].Trim();

    /// <summary>The effective uid (the second of "Uid: real effective saved fs").</summary>
    public static string? EffectiveUid(string process) =>
        Field(process, "Uid:")?.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries) is { Length: >= 2 } uids ? uids[1] : null;

    public static bool SelfHasCapSysPtrace() =>
        Field("self", "CapEff:") is { } hex && ulong.TryParse(hex, NumberStyles.HexNumber, CultureInfo.InvariantCulture, out ulong caps) && (caps & (1UL << CapSysPtrace)) != 0;

    /// <summary>
    /// The fields of a /proc/.../stat line after the ")" that ends the command name (which may hold spaces and
    /// parentheses): [0] is field 3 (state), [n] is field n + 3. Null when the line has no command name.
    /// </summary>
    public static string[]? StatFields(string stat)
    {
        int close = stat.LastIndexOf(')');
        return close < 0 ? null : stat[(close + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
    }

    public static string? Read(string path)
    {
        try
        {
            return File.ReadAllText(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
