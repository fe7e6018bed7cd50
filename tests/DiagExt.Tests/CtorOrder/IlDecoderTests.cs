using DiagExt.Tests.Infrastructure;
using System.Reflection.Metadata;
using DiagExt.Core.Il;

namespace DiagExt.Tests.CtorOrder;

/// <summary>The IL decoder on hand-made byte arrays: real shapes decode, malformed ones are BadImageFormatException, never a crash.</summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class IlDecoderTests
{
    [Test]
    public void Decodes_the_object_builder_shape()
    {
        // ldarg.1; callvirt 0x0A000010; stloc.0; ldloc.0; ldlen; brfalse.s +4; ldloc.0; ldc.i4.0; ldelem.ref; ret; ldnull; ret
        byte[] il = [0x03, 0x6F, 0x10, 0, 0, 0x0A, 0x0A, 0x06, 0x8E, 0x2C, 0x04, 0x06, 0x16, 0x9A, 0x2A, 0x14, 0x2A];

        IlInstruction[] code = IlDecoder.Decode(il);

        Assert.That(code.Select(i => i.OpCode), Is.EqualTo(new[]
        {
            ILOpCode.Ldarg_1, ILOpCode.Callvirt, ILOpCode.Stloc_0, ILOpCode.Ldloc_0, ILOpCode.Ldlen, ILOpCode.Brfalse_s,
            ILOpCode.Ldloc_0, ILOpCode.Ldc_i4_0, ILOpCode.Ldelem_ref, ILOpCode.Ret, ILOpCode.Ldnull, ILOpCode.Ret,
        }));
        Assert.That(code[1].Token, Is.EqualTo(0x0A000010));
        Assert.That(code[5].IntOperand, Is.EqualTo(15), "branch target is absolute: 11 + 4");
    }

    [Test]
    public void Switch_targets_are_absolute()
    {
        byte[] il = [0x45, 2, 0, 0, 0, 1, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF, 0x00, 0x2A];

        IlInstruction sw = IlDecoder.Decode([0x16, .. il])[1];

        Assert.That(sw.SwitchTargets, Is.EqualTo(new[] { 15, 12 }));
    }

    [TestCase(new byte[] { 0x28, 0x01, 0x00 }, TestName = "call token cut short")]
    [TestCase(new byte[] { 0xFE }, TestName = "two-byte opcode cut short")]
    [TestCase(new byte[] { 0x24 }, TestName = "undefined opcode 0x24")]
    [TestCase(new byte[] { 0xFE, 0x1B }, TestName = "undefined opcode 0xFE1B")]
    [TestCase(new byte[] { 0x45, 0xFF, 0xFF, 0xFF, 0x7F }, TestName = "switch claiming 2^31 targets")]
    [TestCase(new byte[] { 0x45, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 }, TestName = "switch table cut short")]
    [TestCase(new byte[] { 0x21, 0x01, 0x02 }, TestName = "ldc.i8 cut short")]
    public void Malformed_il_is_bad_image_format(byte[] il) =>
        Assert.Throws<BadImageFormatException>(() => IlDecoder.Decode(il));
}
