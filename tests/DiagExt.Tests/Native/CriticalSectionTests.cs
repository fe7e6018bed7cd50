using System.Buffers.Binary;
using DiagExt.Core.Native.Windows;

namespace DiagExt.Tests.Native;

/// <summary>RTL_CRITICAL_SECTION decoding in both LockCount encodings and both bitnesses.</summary>
[TestFixture]
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

    /// <summary>An x64 RTL_CRITICAL_SECTION at the start of <paramref name="size"/> bytes of target memory at <see cref="Address"/>.</summary>
    private static byte[] X64Section(int size, ulong debugInfo, int lockCount, int recursion, ulong owner)
    {
        byte[] raw = new byte[size];
        BinaryPrimitives.WriteUInt64LittleEndian(raw, debugInfo);
        BinaryPrimitives.WriteInt32LittleEndian(raw.AsSpan(8), lockCount);
        BinaryPrimitives.WriteInt32LittleEndian(raw.AsSpan(12), recursion);
        BinaryPrimitives.WriteUInt64LittleEndian(raw.AsSpan(16), owner);
        return raw;
    }

    /// <summary>A probe for a process of two threads, 0x100 and 0x104.</summary>
    private static CriticalSectionProbe Probe(byte[] raw, CriticalSectionEncoding encoding) =>
        new(new ByteMemory(Address, raw), WindowsLayout.X64, encoding, new HashSet<uint> { 0x100, 0x104 });

    [Test]
    public void Debug_info_must_point_back_for_a_stack_word_to_count_as_a_critical_section()
    {
        const ulong debugInfo = Address + 0x100;
        byte[] raw = X64Section(0x200, debugInfo, 0, 1, 0x100);
        CriticalSectionProbe probe = Probe(raw, CriticalSectionEncoding.Counting);
        Assert.That(probe.Check(Address).Why, Is.EqualTo($"its DebugInfo 0x{debugInfo:x} points back at 0x0, not at it"));
        BinaryPrimitives.WriteUInt64LittleEndian(raw.AsSpan(0x108), Address);
        Assert.That(probe.Check(Address).IsPlausible, Is.True);
    }

    [Test]
    public void A_heap_block_whose_list_link_points_back_is_not_a_critical_section()
    {
        // The heap block: its first word a list link whose neighbour links back (so "DebugInfo points back"),
        // an "owner" that is a heap address and a LockCount of 1,879,242,740.
        const ulong next = Address + 0x100;
        byte[] raw = X64Section(0x200, next, 1_879_242_740, 1, 0x1a2b_3c40);
        BinaryPrimitives.WriteUInt64LittleEndian(raw.AsSpan(0x100), Address + 0x180);
        BinaryPrimitives.WriteUInt64LittleEndian(raw.AsSpan(0x108), Address);
        CriticalSectionCheck check = Probe(raw, CriticalSectionEncoding.Counting).Check(Address);
        Assert.That(check.Verdict, Is.EqualTo(CriticalSectionVerdict.NotACriticalSection));
        Assert.That(check.Problems.Select(p => p.Fault), Is.EqualTo(new[]
        {
            CriticalSectionFault.OwnerNotInDump, CriticalSectionFault.MoreWaitersThanThreads, CriticalSectionFault.DebugInfo,
        }));
        Assert.That(check.Problems.Select(p => p.Text), Is.EqualTo(new[]
        {
            "OwningThread 0x1a2b3c40 is no thread of this dump",
            "LockCount 1879242740 counts 1879242740 waiters; the dump has 2 threads",
            $"its DebugInfo 0x{next:x} has Type {unchecked((ushort)(Address + 0x180))}, not a critical section's",
        }));
    }

    [TestCase(-2, 1, 0x100u, "Bits", null)]
    [TestCase(-1, 0, 0u, "Bits", null)]
    [TestCase(-1, 1, 0x100u, "Bits", "LockCount -1 says unlocked while OwningThread is 0x100")]
    [TestCase(1, 1, 0x100u, "Bits", "LockCount 1 is not negative, which the Vista+ bit encoding never holds")]
    [TestCase(-6, 1, 0x100u, "Counting", "LockCount -6 is below -1, which the counting encoding (Wine, Windows XP) never holds")]
    [TestCase(0, 3, 0u, "Counting", "RecursionCount 3 with no OwningThread")]
    [TestCase(0, 20_000, 0x100u, "Unknown", "RecursionCount 20000 is not a recursion count")]
    public void Counts_must_be_sane_for_the_processes_encoding(int lockCount, int recursion, uint owner, string encodingName, string? problem)
    {
        byte[] raw = X64Section(WindowsLayout.X64.CsSize, 0, lockCount, recursion, owner);
        Assert.That(Probe(raw, Enum.Parse<CriticalSectionEncoding>(encodingName)).Check(Address).Problems.Select(p => p.Text), Is.EqualTo(problem is null ? Array.Empty<string>() : new[] { problem }));
    }

    [Test]
    public void Counting_encoding_does_not_count_the_owners_recursive_entries_as_waiters()
    {
        Assert.That(Decode(WindowsLayout.X64, 2, 3, 0x100).Waiters, Is.EqualTo(0));
        Assert.That(Decode(WindowsLayout.X64, 3, 3, 0x100).Waiters, Is.EqualTo(1));
    }
}
