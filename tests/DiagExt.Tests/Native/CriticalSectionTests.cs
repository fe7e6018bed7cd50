using DiagExt.Tests.Infrastructure;
using System.Buffers.Binary;
using DiagExt.Core.Native.Windows;

namespace DiagExt.Tests.Native;

/// <summary>RTL_CRITICAL_SECTION decoding in both LockCount encodings and both bitnesses.</summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class CriticalSectionTests
{
    private const ulong Address = 0x7ffe_f447_a568;

    private static CriticalSection Decode(WindowsLayout layout, int lockCount, int recursion, ulong owner, ulong debugInfo = 0)
    {
        byte[] raw = new byte[layout.CsSize];
        if (layout.PointerSize == 8)
        {
            BinaryPrimitives.WriteUInt64LittleEndian(raw, debugInfo);
            BinaryPrimitives.WriteUInt64LittleEndian(raw.AsSpan(layout.CsOwningThread), owner);
        }
        else
        {
            BinaryPrimitives.WriteUInt32LittleEndian(raw, (uint)debugInfo);
            BinaryPrimitives.WriteUInt32LittleEndian(raw.AsSpan(layout.CsOwningThread), (uint)owner);
        }
        BinaryPrimitives.WriteInt32LittleEndian(raw.AsSpan(layout.CsLockCount), lockCount);
        BinaryPrimitives.WriteInt32LittleEndian(raw.AsSpan(layout.CsRecursionCount), recursion);
        return CriticalSection.Read(new ByteMemory(Address, raw), Address, layout)!;
    }

    [Test]
    public void The_seeds_lock_is_held_with_no_waiters_in_the_vista_encoding()
    {
        // dx on the seed's loader lock: LockCount -2, RecursionCount 1, OwningThread 0x6710.
        CriticalSection cs = Decode(WindowsLayout.X64, -2, 1, 0x6710);
        Assert.That(cs.IsHeld, Is.True);
        Assert.That(cs.OwningThread, Is.EqualTo(0x6710));
        Assert.That(cs.Waiters, Is.EqualTo(0));
        Assert.That(cs.LockCountMeaning, Does.StartWith("locked, 0 waiters"));
    }

    [TestCase(-6, 1)]
    [TestCase(-10, 2)]
    public void Vista_encoding_counts_waiters_in_the_complemented_high_bits(int lockCount, int waiters)
    {
        CriticalSection cs = Decode(WindowsLayout.X86, lockCount, 1, 0x174);
        Assert.That(cs.Waiters, Is.EqualTo(waiters));
        Assert.That(cs.UsesCountingEncoding, Is.False);
    }

    [Test]
    public void Counting_encoding_of_xp_and_wine()
    {
        CriticalSection cs = Decode(WindowsLayout.X86, 1, 1, 0x174);
        Assert.That(cs.UsesCountingEncoding, Is.True);
        Assert.That(cs.Waiters, Is.EqualTo(1));
        Assert.That(cs.LockCountMeaning, Does.StartWith("owned, 1 waiter"));
    }

    [Test]
    public void Free_lock_in_either_encoding()
    {
        CriticalSection cs = Decode(WindowsLayout.X64, -1, 0, 0);
        Assert.That(cs.IsHeld, Is.False);
        Assert.That(cs.LockCountMeaning, Is.EqualTo("free"));
    }

    [Test]
    public void An_owner_without_a_recursion_count_is_not_held()
    {
        Assert.That(Decode(WindowsLayout.X64, -2, 0, 0x6710).IsHeld, Is.False);
    }

    [Test]
    public void Memory_not_captured_gives_no_lock()
    {
        Assert.That(CriticalSection.Read(new ByteMemory(Address, new byte[8]), Address, WindowsLayout.X64), Is.Null);
    }

    [Test]
    public void Debug_info_must_point_back_for_a_stack_word_to_count_as_a_critical_section()
    {
        const ulong debugInfo = Address + 0x100;
        byte[] raw = new byte[0x200];
        BinaryPrimitives.WriteUInt64LittleEndian(raw, debugInfo);
        BinaryPrimitives.WriteInt32LittleEndian(raw.AsSpan(8), 0);
        BinaryPrimitives.WriteInt32LittleEndian(raw.AsSpan(12), 1);
        BinaryPrimitives.WriteUInt64LittleEndian(raw.AsSpan(16), 0x100);
        var memory = new ByteMemory(Address, raw);
        CriticalSection cs = CriticalSection.Read(memory, Address, WindowsLayout.X64)!;
        Assert.That(cs.IsPlausible(memory, WindowsLayout.X64), Is.False, "debug record does not point back");
        BinaryPrimitives.WriteUInt64LittleEndian(raw.AsSpan(0x108), Address);
        Assert.That(cs.IsPlausible(memory, WindowsLayout.X64), Is.True);
    }
}
