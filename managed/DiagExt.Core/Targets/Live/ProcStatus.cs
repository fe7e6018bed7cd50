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
