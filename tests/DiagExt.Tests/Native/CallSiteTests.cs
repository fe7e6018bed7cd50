using DiagExt.Tests.Infrastructure;
using DiagExt.Core.Native.Stacks;

namespace DiagExt.Tests.Native;

/// <summary>Which byte sequences before a return address are call instructions.</summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class CallSiteTests
{
    private static bool EndsWithCall(params byte[] bytes)
    {
        // Pad in front as real code would be: the check only looks at how the bytes end.
        byte[] before = new byte[CallSite.MaxLength];
        bytes.CopyTo(before, CallSite.MaxLength - bytes.Length);
        return CallSite.EndsWithCall(before);
    }

    [TestCase(new byte[] { 0xE8, 0x10, 0x20, 0x30, 0x40 }, TestName = "call rel32")]
    [TestCase(new byte[] { 0xFF, 0x15, 0x10, 0x20, 0x30, 0x40 }, TestName = "call [rip+disp32]")]
    [TestCase(new byte[] { 0x48, 0xFF, 0x15, 0x10, 0x20, 0x30, 0x40 }, TestName = "rex.w call [rip+disp32]")]
    [TestCase(new byte[] { 0xFF, 0xD0 }, TestName = "call rax")]
    [TestCase(new byte[] { 0x41, 0xFF, 0xD3 }, TestName = "call r11")]
    [TestCase(new byte[] { 0xFF, 0x50, 0x10 }, TestName = "call [rax+disp8]")]
    [TestCase(new byte[] { 0xFF, 0x54, 0x24, 0x08 }, TestName = "call [rsp+disp8]")]
    [TestCase(new byte[] { 0xFF, 0x94, 0x24, 0x00, 0x01, 0x00, 0x00 }, TestName = "call [rsp+disp32]")]
    [TestCase(new byte[] { 0xFF, 0x10 }, TestName = "call [rax]")]
    public void Calls(byte[] bytes) => Assert.That(EndsWithCall(bytes), Is.True);

    [TestCase(new byte[] { 0x48, 0x89, 0x5C, 0x24, 0x08 }, TestName = "mov [rsp+8], rbx")]
    [TestCase(new byte[] { 0xFF, 0xE0 }, TestName = "jmp rax")]
    [TestCase(new byte[] { 0xFF, 0x25, 0x10, 0x20, 0x30, 0x40 }, TestName = "jmp [rip+disp32]")]
    [TestCase(new byte[] { 0xFF, 0x15, 0x10, 0x20, 0x30 }, TestName = "call [rip+disp32] cut short")]
    [TestCase(new byte[] { 0x90, 0x90, 0x90, 0x90, 0xC3 }, TestName = "ret")]
    public void Not_calls(byte[] bytes) => Assert.That(EndsWithCall(bytes), Is.False);
}
