using System.Globalization;
using System.Runtime.InteropServices;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets.Symbols;

/// <summary>
/// The symbol-store key (SSQP, the layout Microsoft's symbol server and dotnet-symbol use) of a runtime's DAC.
/// A DAC is filed under its runtime's identity, not its own: "libmscordaccore.so/elf-buildid-coreclr-BUILDID/
/// libmscordaccore.so" with libcoreclr.so's GNU build id, "mscordaccore.dll/TIMESTAMPSIZE/mscordaccore.dll" with
/// coreclr.dll's COFF timestamp (%08x) and SizeOfImage (%x), "libmscordaccore.dylib/mach-uuid-coreclr-UUID/...".
/// Keys are lower case.
/// </summary>
public static class SymbolKey
{
    public static string? ForDac(DebugLibraryInfo library)
    {
        if (library.Kind != DebugLibraryKind.Dac || library.ArchivedUnder == SymbolProperties.None)
            return null;
        string file = Path.GetFileName(library.FileName).ToLowerInvariant();
        if (file.Length == 0 || file.IndexOfAny(['/', '\\', ':']) >= 0)
            return null;
        string? index = Index(library);
        return index is null ? null : $"{file}/{index}/{file}";
    }

    private static string? Index(DebugLibraryInfo library)
    {
        string prefix = library.ArchivedUnder == SymbolProperties.Coreclr ? "-coreclr" : "";
        if (!library.IndexBuildId.IsDefaultOrEmpty)
        {
            string id = Convert.ToHexStringLower(library.IndexBuildId.AsSpan());
            return library.Platform == OSPlatform.OSX ? $"mach-uuid{prefix}-{id}" : $"elf-buildid{prefix}-{id}";
        }
        if (library.IndexTimeStamp != 0 && library.IndexFileSize != 0)
            return string.Create(CultureInfo.InvariantCulture, $"{library.IndexTimeStamp:x8}{library.IndexFileSize:x}");
        return null;
    }
}
