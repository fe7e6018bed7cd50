using System.Buffers.Binary;
using System.Text;

namespace DiagExt.Fuzz.Targets.Elf;

/// <summary>
/// The head of an x64 ELF core written in code (header, a PT_NOTE with two NT_PRSTATUS notes carrying CPU times and a
/// GNU build id, a PT_LOAD): a seed before any createdump core exists. Real cores' heads are the better seeds.
/// </summary>
internal static class SyntheticElfCore
{
    public static byte[] Build()
    {
        var notes = new List<byte>();
        for (uint tid = 100; tid < 102; tid++)
        {
            var status = new byte[336];
            BinaryPrimitives.WriteUInt32LittleEndian(status.AsSpan(32), tid);
            BinaryPrimitives.WriteUInt64LittleEndian(status.AsSpan(48), tid - 99); // user seconds
            BinaryPrimitives.WriteUInt64LittleEndian(status.AsSpan(64), 2);        // system seconds
            Note(notes, "CORE", 1, status);
        }
        Note(notes, "GNU", 3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);

        const int headerSize = 64, phdrSize = 56;
        int notesOffset = headerSize + 2 * phdrSize;
        var file = new byte[notesOffset + notes.Count];
        file[0] = 0x7F; file[1] = (byte)'E'; file[2] = (byte)'L'; file[3] = (byte)'F';
        file[4] = 2; file[5] = 1; file[6] = 1;
        BinaryPrimitives.WriteUInt16LittleEndian(file.AsSpan(16), 4);     // ET_CORE
        BinaryPrimitives.WriteUInt16LittleEndian(file.AsSpan(18), 62);    // x86-64
        BinaryPrimitives.WriteUInt64LittleEndian(file.AsSpan(32), headerSize);
        BinaryPrimitives.WriteUInt16LittleEndian(file.AsSpan(52), headerSize);
        BinaryPrimitives.WriteUInt16LittleEndian(file.AsSpan(54), phdrSize);
        BinaryPrimitives.WriteUInt16LittleEndian(file.AsSpan(56), 2);
        Phdr(file, headerSize, 4, (ulong)notesOffset, 0, (ulong)notes.Count);
        Phdr(file, headerSize + phdrSize, 1, (ulong)file.Length, 0x400000, 0); // a PT_LOAD with no file bytes
        notes.CopyTo(file, notesOffset);
        return file;
    }

    private static void Phdr(byte[] file, int at, uint type, ulong offset, ulong address, ulong size)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(file.AsSpan(at), type);
        BinaryPrimitives.WriteUInt64LittleEndian(file.AsSpan(at + 8), offset);
        BinaryPrimitives.WriteUInt64LittleEndian(file.AsSpan(at + 16), address);
        BinaryPrimitives.WriteUInt64LittleEndian(file.AsSpan(at + 32), size);
        BinaryPrimitives.WriteUInt64LittleEndian(file.AsSpan(at + 40), size);
    }

    private static void Note(List<byte> to, string name, uint type, byte[] desc)
    {
        byte[] n = Encoding.ASCII.GetBytes(name + "\0");
        to.AddRange(BitConverter.GetBytes(n.Length));
        to.AddRange(BitConverter.GetBytes(desc.Length));
        to.AddRange(BitConverter.GetBytes(type));
        to.AddRange(n);
        to.AddRange(new byte[(4 - n.Length % 4) % 4]);
        to.AddRange(desc);
        to.AddRange(new byte[(4 - desc.Length % 4) % 4]);
    }
}
