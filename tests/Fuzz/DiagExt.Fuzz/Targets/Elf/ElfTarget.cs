using DiagExt.Core;
using System.Runtime.InteropServices;
using System.Text;
using DiagExt.Core.Native;
using DiagExt.Core.Native.Elf;
using DiagExt.Core.Targets;
using DiagExt.Core.Targets.CpuTime;
using DiagExt.Fuzz.Engine;

namespace DiagExt.Fuzz.Targets.Elf;

/// <summary>
/// An ELF file through DiagExt's own reader: the header and program headers (PN_XNUM included), the length a core
/// must have, every note, the GNU build id (how a DAC is matched), and for a core the NT_PRSTATUS thread times.
/// Seeds are the heads of real createdump cores (header, program headers and notes: up to the first PT_LOAD's data).
/// </summary>
public sealed class ElfTarget : IFuzzTarget
{
    public string Name => "elf";

    public string Covers => "Native/Elf (ElfFile, ElfCoreFile, ElfThreadStatus, ElfNote, build id), Targets/CpuTime/ElfThreadTimesReader";

    public IReadOnlyList<byte[]> Tokens { get; } = [[0x7F, (byte)'E', (byte)'L', (byte)'F'], Encoding.ASCII.GetBytes("CORE\0\0\0\0"), Encoding.ASCII.GetBytes("GNU\0"), [0xFF, 0xFF]];

    public IEnumerable<byte[]> BuiltInSeeds()
    {
        yield return SyntheticElfCore.Build();
        // A real shared object's head holds its build id note: the runtime's own DAC is always at hand.
        string dac = Path.Combine(RuntimeEnvironment.GetRuntimeDirectory(), "libmscordaccore.so");
        if (File.Exists(dac))
        {
            using FileStream file = File.OpenRead(dac);
            var head = new byte[Math.Min(file.Length, 16 * 1024)];
            file.ReadExactly(head);
            yield return head;
        }
    }

    public IReadOnlyList<Field> Fields(ReadOnlySpan<byte> input) => ElfFields.Find(input);

    public bool IsDocumentedRejection(Exception e) => e is InvalidDataException;

    public string Execute(ReadOnlyMemory<byte> input)
    {
        var signature = new Signature();
        ElfFile elf = ElfFile.Read(new FileBytes("fuzz.core", input), Limits.Default);
        signature.Add("is64", elf.Is64Bit).Add("core", elf.Type == ElfFile.TypeCore).Add("headers", elf.ProgramHeaders.Count);
        signature.Add("short", elf.RequiredFileLength() > (ulong)input.Length);
        List<ElfNote> notes = elf.EnumerateNotes().ToList();
        if (notes.Any(n => n.Descriptor.Length > input.Length))
            throw new PropertyViolation("a note's descriptor is longer than the file");
        signature.Add("notes", notes.Count).Add("buildId", notes.Any(n => n.Type == ElfNote.GnuBuildId && n.Name == "GNU"));
        if (elf.Type != ElfFile.TypeCore)
            return signature.ToString();

        using ElfCoreFile core = ElfCoreFile.Open(new FileBytes("fuzz.core", input));
        IReadOnlyList<ElfThreadStatus> statuses = core.ReadThreadStatuses();
        foreach (ElfThreadStatus s in statuses)
            if (s.UserTime < TimeSpan.Zero || s.SystemTime < TimeSpan.Zero || s.UserTime > TimeSpan.FromDays(366 * 101))
                throw new PropertyViolation($"thread CPU times out of range: thread {s.ThreadId}, {s.UserTime} / {s.SystemTime}");
        ThreadTimes times = ElfThreadTimesReader.Read(core);
        return signature.Add("statuses", statuses.Count).Add("times", times.Available).ToString();
    }
}
