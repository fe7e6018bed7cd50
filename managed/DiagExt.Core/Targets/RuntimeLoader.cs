using System.Runtime.InteropServices;
using System.Text.RegularExpressions;
using DiagExt.Core.Errors;
using DiagExt.Core.Native.Elf;
using DiagExt.Core.Targets.Symbols;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets;

/// <summary>
/// Finds the DAC for the target's runtime: the one the user passes; the one beside the runtime the dump names
/// (when that runtime is on this machine and its build id matches); else through the symbol path (caches and
/// local stores, and a download only when the user gave a server: --symbol-server, --symbol-path or
/// _NT_SYMBOL_PATH).
/// </summary>
internal static partial class RuntimeLoader
{
    public static (ClrRuntime? Runtime, RuntimeStatus Status) Load(DataTarget dataTarget, TargetOptions options, CancellationToken cancellation)
    {
        string? dacPath = options.DacPath;
        if (dataTarget.ClrVersions.Length == 0)
            return (null, RuntimeStatus.NotPresent);

        ClrInfo clr = dataTarget.ClrVersions[0];
        string version = VersionOf(clr, dataTarget.DataReader);
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

        string? dac = dacPath ?? FindLocalDac(clr, target);
        if (dac is null)
        {
            DacSearch search = DacLocator.Find(clr, target, options.Symbols, options.SymbolTimeout, cancellation);
            dac = search.File;
            if (dac is null)
                return (null, new RuntimeStatus(RuntimeAvailability.DacNotFound, version, flavor, NotFound(flavor, version, DacFileName(target), search, options)));
        }
        if (!File.Exists(dac))
            return (null, new RuntimeStatus(RuntimeAvailability.DacNotFound, version, flavor, $"the DAC given does not exist: {dac}"));

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
    /// else from the runtime file's version; .NET Core 2.x/3.x stamp theirs 4.6xx/4.700, which says little alone;
    /// else (a self-contained app's core) the version the binary stamps into itself.
    /// </summary>
    private static string VersionOf(ClrInfo clr, IDataReader reader)
    {
        Match m = VersionInPath().Match(clr.ModuleInfo.FileName ?? "");
        if (m.Success)
            return m.Groups[1].Value;
        Version v = clr.Version;
        string file = Path.GetFileName(clr.ModuleInfo.FileName ?? "the runtime");
        if (v.Major == 4 && v.Minor >= 600 && clr.Flavor == ClrFlavor.Core)
            return $"Core {(v.Minor >= 700 ? "3.x" : "2.x")} ({file} {v})";
        if (v.Major != 0)
            return v.ToString();
        return RuntimeVersionStamp.Read(reader, clr.ModuleInfo) is { } stamp ? $"({file} {stamp})" : "(unknown version)";
    }

    /// <summary>
    /// The DAC in the folder the dump's runtime ran from, when that folder exists here and holds the same runtime
    /// build (build id compared). Worked out from the runtime module's path, not from ClrMD's list of debugging
    /// libraries: ClrMD 4.2 lists only the symbol-store names there.
    /// </summary>
    private static string? FindLocalDac(ClrInfo clr, OSPlatform platform)
    {
        string? runtimePath = clr.ModuleInfo.FileName;
        if (string.IsNullOrEmpty(runtimePath) || !Path.IsPathRooted(runtimePath) || Path.GetDirectoryName(runtimePath) is not { } folder)
            return null;
        string dac = Path.Combine(folder, DacFileName(platform));
        if (!File.Exists(dac))
            return null;
        ImmutableBuildId dumpBuildId = new(clr.ModuleInfo.BuildId.IsDefault ? [] : clr.ModuleInfo.BuildId.ToArray());
        return dumpBuildId.IsEmpty || ElfBuildId.TryRead(runtimePath) is { } local && dumpBuildId.Matches(local) ? dac : null;
    }

    /// <summary>One line saying what was tried and what the user can do: the key and URL a download would use.</summary>
    private static string NotFound(string flavor, string version, string file, DacSearch search, TargetOptions options)
    {
        string start = $"{flavor} {version} found, but no matching DAC ({file}) is on this machine";
        string giveDac = $"{options.Remedies.For(Remedy.GiveDac)} {version}";
        if (search.Key is null)
            return $"{start} and {search.Failure}; {giveDac}";
        if (search.Failure is not null)
            return $"{start}, and the symbol path ({options.Symbols.Origin}) did not give {search.Key}: {search.Failure}; {giveDac}";
        return $"{start}; {options.Remedies.For(Remedy.GiveOrDownloadDac)}: {new Uri(SymbolPath.MicrosoftServer, search.Key)} (diagext downloads only when asked)";
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
