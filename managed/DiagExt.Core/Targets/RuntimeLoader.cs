using System.Runtime.InteropServices;
using System.Text.RegularExpressions;
using DiagExt.Core.Native.Elf;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets;

/// <summary>
/// Finds the DAC for the target's runtime without any network: the one beside the runtime the dump names
/// (when that runtime is on this machine and its build id matches), or the one the user passes.
/// </summary>
internal static partial class RuntimeLoader
{
    public static (ClrRuntime? Runtime, RuntimeStatus Status) Load(DataTarget dataTarget, string? dacPath)
    {
        if (dataTarget.ClrVersions.Length == 0)
            return (null, RuntimeStatus.NotPresent);

        ClrInfo clr = dataTarget.ClrVersions[0];
        string version = VersionOf(clr);
        string flavor = clr.Flavor == ClrFlavor.Desktop ? ".NET Framework" : ".NET";
        OSPlatform target = dataTarget.DataReader.TargetPlatform;
        OSPlatform host = OperatingSystem.IsWindows() ? OSPlatform.Windows : OperatingSystem.IsMacOS() ? OSPlatform.OSX : OSPlatform.Linux;

        Architecture targetArch = dataTarget.DataReader.Architecture;
        if (targetArch != RuntimeInformation.ProcessArchitecture && dacPath is null)
            return (null, new RuntimeStatus(RuntimeAvailability.UnsupportedHost, version, flavor,
                $"{flavor} {version} found in a {targetArch.ToString().ToLowerInvariant()} target, but this diagext is {RuntimeInformation.ProcessArchitecture.ToString().ToLowerInvariant()}: a DAC only loads into a process of its target's bitness; run the {targetArch.ToString().ToLowerInvariant()} build of diagext"));

        if (target != host && dacPath is null)
            return (null, new RuntimeStatus(RuntimeAvailability.UnsupportedHost, version, flavor,
                $"{flavor} {version} found, but its DAC runs only on {Describe(target)}: analyse this dump's managed state on {Describe(target)} (native detectors still run here)"));

        string? dac = dacPath ?? FindLocalDac(clr);
        if (dac is null)
            return (null, new RuntimeStatus(RuntimeAvailability.DacNotFound, version, flavor,
                $"{flavor} {version} found, but no matching DAC ({DacFileName(target)}) is on this machine; pass --dac PATH to the DAC of runtime {version} (diagext never downloads it)"));
        if (!File.Exists(dac))
            return (null, new RuntimeStatus(RuntimeAvailability.DacNotFound, version, flavor, $"the DAC passed with --dac does not exist: {dac}"));

        try
        {
            // ignoreMismatch: ClrMD cannot read the runtime's version from a Linux core (it reports 0.0);
            // FindLocalDac already matched the build id, and an explicit --dac is the user's call.
            ClrRuntime runtime = clr.CreateRuntime(dac, ignoreMismatch: true);
            return (runtime, new RuntimeStatus(RuntimeAvailability.Loaded, version, flavor, null));
        }
        catch (Exception e) when (e is ClrDiagnosticsException or IOException or InvalidOperationException or BadImageFormatException or DllNotFoundException or EntryPointNotFoundException or InvalidDataException)
        {
            return (null, new RuntimeStatus(RuntimeAvailability.DacFailed, version, flavor, $"{flavor} {version} found, but its DAC {dac} could not be loaded: {OneLine(e.Message)}"));
        }
    }

    /// <summary>
    /// The runtime version as people name it: from the install path (".../Microsoft.NETCore.App/10.0.12/"),
    /// else from the runtime file's version; .NET Core 2.x/3.x stamp theirs 4.6xx/4.700, which says little alone.
    /// </summary>
    private static string VersionOf(ClrInfo clr)
    {
        Match m = VersionInPath().Match(clr.ModuleInfo.FileName ?? "");
        if (m.Success)
            return m.Groups[1].Value;
        Version v = clr.Version;
        string file = Path.GetFileName(clr.ModuleInfo.FileName ?? "the runtime");
        if (v.Major == 4 && v.Minor >= 600 && clr.Flavor == ClrFlavor.Core)
            return $"Core {(v.Minor >= 700 ? "3.x" : "2.x")} ({file} {v})";
        return v.Major != 0 ? v.ToString() : "(unknown version)";
    }

    private static string? FindLocalDac(ClrInfo clr)
    {
        ImmutableBuildId dumpBuildId = new(clr.ModuleInfo.BuildId.IsDefault ? [] : clr.ModuleInfo.BuildId.ToArray());
        foreach (DebugLibraryInfo library in clr.DebuggingLibraries)
        {
            if (library.Kind != DebugLibraryKind.Dac || Path.GetFileName(library.FileName) == library.FileName || !File.Exists(library.FileName))
                continue;
            // The dump names the runtime directory it ran from. Only trust the DAC there if the runtime in that
            // directory on this machine is the same build as the one in the dump.
            string localRuntime = Path.Combine(Path.GetDirectoryName(library.FileName)!, Path.GetFileName(clr.ModuleInfo.FileName ?? "libcoreclr.so"));
            if (dumpBuildId.IsEmpty || ElfBuildId.TryRead(localRuntime) is { } local && dumpBuildId.Matches(local))
                return library.FileName;
        }
        return null;
    }

    private static string DacFileName(OSPlatform platform) =>
        platform == OSPlatform.Windows ? "mscordaccore.dll" : platform == OSPlatform.OSX ? "libmscordaccore.dylib" : "libmscordaccore.so";

    private static string Describe(OSPlatform platform) =>
        platform == OSPlatform.Windows ? "Windows" : platform == OSPlatform.OSX ? "macOS" : "Linux";

    private static string OneLine(string s) => s.ReplaceLineEndings(" ");

    [GeneratedRegex(@"[/\\](\d+\.\d+\.\d+(?:-[\w.]+)?)[/\\][^/\\]+$")]
    private static partial Regex VersionInPath();

    private readonly record struct ImmutableBuildId(byte[] Bytes)
    {
        public bool IsEmpty => Bytes.Length == 0;

        public bool Matches(byte[] other) => Bytes.AsSpan().SequenceEqual(other);
    }
}
