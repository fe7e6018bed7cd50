using DiagExt.Core.Native.Minidump;
using DiagExt.Core.Native.Symbols;

namespace DiagExt.Core.Native.Windows;

/// <summary>
/// Whether the dumped process ran on Windows or under Wine, and whose writer wrote the dump: they differ in the
/// critical section encoding and in what the dump's moment means.
/// </summary>
/// <param name="Wine">The process ran under Wine: its ntdll exports wine_get_version, or Wine's writer wrote the dump.</param>
/// <param name="WineWriter">Wine's dbghelp wrote the dump: it pauses each thread only while it reads that thread's
/// registers and copies memory afterwards while the process runs (dlls/dbghelp/minidump.c), so registers and memory
/// of a running thread can disagree.</param>
internal sealed record WindowsFlavor(bool Wine, bool WineWriter, CriticalSectionEncoding Encoding)
{
    public static WindowsFlavor Detect(MinidumpFile dump, NativeSymbolizer symbols)
    {
        bool wineWriter = dump.WrittenByWine;
        bool wine = wineWriter || symbols.ExportAddress("ntdll.dll", "wine_get_version") is not null;
        CriticalSectionEncoding encoding = wine ? CriticalSectionEncoding.Counting
            : dump.SystemInfo is not { } system ? CriticalSectionEncoding.Unknown
            : system.MajorVersion >= 6 ? CriticalSectionEncoding.Bits
            : system is { MajorVersion: 5, MinorVersion: <= 1 } ? CriticalSectionEncoding.Counting
            : CriticalSectionEncoding.Unknown; // Server 2003 changed encodings with SP1
        return new WindowsFlavor(wine, wineWriter, encoding);
    }
}
