using System.Buffers.Binary;
using System.Text;
using DiagExt.Core.Detectors.Hang;
using DiagExt.Core.Native;
using DiagExt.Core.Native.Elf;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Hang;

/// <summary>The readers under hang's native-mutex source: the pthread mutex's fields, a core's NT_FILE note, an ELF file's symbols.</summary>
[TestFixture]
[Category(TestKind.Unit)]
public class NativeLockReaderTests
{
    [TestCase(0, true, "normal")]
    [TestCase(1, true, "recursive")]
    [TestCase(2, true, "error-checking")]
    [TestCase(3, true, "adaptive")]
    [TestCase(16, true, "normal, robust")]
    [TestCase(1 | 32, true, "recursive, priority-inherit")]
    [TestCase(0x1000, false, null)]
    [TestCase(-1, false, null)]
    public void A_mutex_kind_is_valid_only_with_glibc_s_kind_and_flag_bits(int kind, bool valid, string? text)
    {
        var mutex = new PthreadMutex(0x1000, 2, 0, 1234, 1, kind);
        Assert.That(mutex.HasValidKind, Is.EqualTo(valid));
        if (text is not null)
            Assert.That(mutex.KindText, Is.EqualTo(text));
    }

    [Test]
    public void The_loader_lock_is_the_first_pair_of_recursive_mutexes_after_a_namespace_count()
    {
        byte[] rtld = new byte[0x1000];
        // A namespace's own recursive lock after a pointer (libc_map): not it.
        BinaryPrimitives.WriteUInt64LittleEndian(rtld.AsSpan(0x100), 0x7f0000001000);
        WriteMutex(rtld, 0x108, kind: 1, lockWord: 0, owner: 0);
        WriteMutex(rtld, 0x108 + PthreadMutex.Size, kind: 1, lockWord: 0, owner: 0);
        // _dl_nns = 1, then _dl_load_lock (held by TID 4242, contended) and _dl_load_write_lock (free).
        BinaryPrimitives.WriteUInt64LittleEndian(rtld.AsSpan(0xa00), 1);
        WriteMutex(rtld, 0xa08, kind: 1, lockWord: 2, owner: 4242);
        WriteMutex(rtld, 0xa08 + PthreadMutex.Size, kind: 1, lockWord: 0, owner: 0);
        Assert.That(GlibcLoaderLock.FindLoadLockOffset(rtld), Is.EqualTo(0xa08));

        WriteMutex(rtld, 0xa08, kind: 1, lockWord: 2, owner: 0); // locked with no owner: not a mutex's state
        Assert.That(GlibcLoaderLock.FindLoadLockOffset(rtld), Is.Null);
        Assert.That(GlibcLoaderLock.FindLoadLockOffset(rtld.AsSpan(0, 0xa10)), Is.Null, "cut short: no room for both locks");
    }

    private static void WriteMutex(byte[] bytes, int at, int kind, int lockWord, uint owner)
    {
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(at), lockWord);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(at + 8), owner);
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(at + 16), kind);
    }

    [Test]
    public void The_file_note_gives_each_file_from_its_first_mapping_to_the_end_of_its_last()
    {
        byte[] note = FileNote(
            (0x1000, 0x2000, 0, "/lib/a.so"),
            (0x2000, 0x5000, 1, "/lib/a.so"),
            (0x9000, 0xA000, 3, "/lib/only-later-part.so"),
            (0xB000, 0xC000, 0, "/lib/b.so"));
        var files = ElfMappedFiles.Parse(note);
        Assert.That(files.Select(f => (f.Start, f.End, f.Path)), Is.EqualTo(new[] { (0x1000UL, 0x5000UL, "/lib/a.so"), (0xB000UL, 0xC000UL, "/lib/b.so") }));
    }

    [Test]
    public void A_file_note_claiming_more_mappings_than_it_holds_gives_nothing()
    {
        byte[] note = FileNote((0x1000, 0x2000, 0, "/lib/a.so"));
        BinaryPrimitives.WriteUInt64LittleEndian(note, 1_000_000);
        Assert.That(ElfMappedFiles.Parse(note), Is.Empty);
        Assert.That(ElfMappedFiles.Parse([1, 2, 3]), Is.Empty);
    }

    [Test]
    public void Bytes_that_are_not_an_elf_file_have_no_symbol_table()
    {
        Assert.That(ElfSymbolTable.Read(new FileBytes("junk", new byte[200])), Is.Null);
        byte[] header = new byte[64];
        "\x7F"u8.CopyTo(header);
        Encoding.ASCII.GetBytes("ELF").CopyTo(header, 1);
        header[4] = 2;
        header[5] = 1;
        BinaryPrimitives.WriteUInt16LittleEndian(header.AsSpan(54), 56);
        BinaryPrimitives.WriteUInt16LittleEndian(header.AsSpan(58), 64);
        BinaryPrimitives.WriteUInt16LittleEndian(header.AsSpan(60), 60000); // more sections than the limit
        Assert.That(ElfSymbolTable.Read(new FileBytes("many sections", header)), Is.Null);
    }

    [Test]
    public void This_machine_s_glibc_names_its_functions_and_exports_rtld_global()
    {
        const string libc = "/lib/x86_64-linux-gnu/libc.so.6", ld = "/lib64/ld-linux-x86-64.so.2";
        Assume.That(File.Exists(libc) && File.Exists(ld), "an x86-64 glibc system");
        ElfSymbolTable table = ElfSymbolTable.Load(libc)!;
        ElfSymbolTable.Symbol lockFunction = table.Find("pthread_mutex_lock")!.Value;
        Assert.That(table.FunctionAt(lockFunction.Value + 4), Is.EqualTo(("pthread_mutex_lock", 4UL)), "the public name of the two glibc gives that address");
        Assert.That(table.IsCode(lockFunction.Value), Is.True);
        ElfSymbolTable.Symbol rtld = ElfSymbolTable.Load(ld)!.Find("_rtld_global")!.Value;
        Assert.That(rtld.IsFunction, Is.False);
        Assert.That(rtld.Size, Is.GreaterThan((ulong)(2 * PthreadMutex.Size)));
    }

    private static byte[] FileNote(params (ulong Start, ulong End, ulong Page, string Path)[] maps)
    {
        var bytes = new List<byte>();
        void U64(ulong v)
        {
            byte[] b = new byte[8];
            BinaryPrimitives.WriteUInt64LittleEndian(b, v);
            bytes.AddRange(b);
        }
        U64((ulong)maps.Length);
        U64(4096);
        foreach (var m in maps)
        {
            U64(m.Start);
            U64(m.End);
            U64(m.Page);
        }
        foreach (var m in maps)
            bytes.AddRange([.. Encoding.UTF8.GetBytes(m.Path), 0]);
        return [.. bytes];
    }
}
