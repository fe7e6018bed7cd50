using DiagExt.Core.Native.Elf;
using DiagExt.Tests.Infrastructure;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.Batch;

/// <summary>
/// A real core made hostile the way a fuzzer found: one runtime variable set to all ones. Random 4 KB
/// writes into copies of a DictCycle core crashed the analysis with SIGSEGV inside the DAC (the fault is
/// in libmscordaccore.so, which no catch can stop); bisecting narrowed one such crash to the 8 bytes that
/// the DAC's own table of runtime globals (g_dacTable, exported by libcoreclr.so) lists at entry 665 on
/// .NET 10.0.12. The variable is found through that table, so the corruption lands on it in any dump of
/// the same runtime.
/// </summary>
public static class HostileDump
{
    public const int DacTableEntry = 665;

    /// <summary>The .NET runtime on which <see cref="DacTableEntry"/> was found to crash the DAC.</summary>
    public const string FoundOn = "10.0.12";

    public static string CrashingDac(string source, string name)
    {
        string target = Path.Combine(Repo.WorkDirectory, "dumps", name);
        File.Copy(source, target, overwrite: true);
        ulong variable;
        using (DataTarget dataTarget = DataTarget.LoadDump(source, new DataTargetOptions { SymbolPaths = [] }))
        {
            ModuleInfo coreclr = dataTarget.EnumerateModules().Single(m => Path.GetFileName(m.FileName) == "libcoreclr.so");
            ulong table = coreclr.GetExportSymbolAddress("g_dacTable");
            Assert.That(table, Is.Not.Zero, "libcoreclr.so exports g_dacTable");
            Assert.That(dataTarget.DataReader.ReadPointer(table + DacTableEntry * 8UL, out variable), Is.True);
        }
        long offset = FileOffset(target, variable);
        using FileStream file = File.OpenWrite(target);
        file.Position = offset;
        file.Write(Enumerable.Repeat((byte)0xFF, 8).ToArray());
        return target;
    }

    private static long FileOffset(string core, ulong address)
    {
        using ElfCoreFile elf = ElfCoreFile.Open(core);
        ElfProgramHeader segment = elf.Elf.ProgramHeaders.Single(h => h.Type == ElfProgramHeader.Load && address >= h.VirtualAddress && address + 8 <= h.VirtualAddress + h.FileSize);
        return (long)(segment.Offset + (address - segment.VirtualAddress));
    }
}
