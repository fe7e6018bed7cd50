namespace DiagExt.Core.Native.Stacks;

/// <summary>
/// Decides whether the bytes just before a candidate return address end with a call instruction (x86 and x64):
/// a stack word that points into code but does not follow a call is data, not a return address.
/// </summary>
internal static class CallSite
{
    /// <summary>The longest call checked: FF /2 with ModRM, SIB and a 32-bit displacement (7 bytes).</summary>
    public const int MaxLength = 7;

    /// <param name="before">The bytes that end right at the candidate return address (up to <see cref="MaxLength"/>).</param>
    public static bool EndsWithCall(ReadOnlySpan<byte> before)
    {
        int n = before.Length;
        // call rel32: E8 xx xx xx xx
        if (n >= 5 && before[n - 5] == 0xE8)
            return true;
        // call r/m: FF /2, whose length follows from its ModRM (and SIB) byte. A REX prefix before FF
        // does not change where the instruction ends.
        for (int length = 2; length <= Math.Min(MaxLength, n); length++)
        {
            if (before[n - length] != 0xFF)
                continue;
            byte modrm = before[n - length + 1];
            if (((modrm >> 3) & 7) != 2)
                continue;
            byte? sib = length >= 3 ? before[n - length + 2] : null;
            if (IndirectCallLength(modrm, sib) == length)
                return true;
        }
        return false;
    }

    /// <summary>The length of FF /2 with this ModRM (and SIB, when the ModRM needs one).</summary>
    private static int IndirectCallLength(byte modrm, byte? sib)
    {
        int mod = modrm >> 6, rm = modrm & 7;
        if (mod == 3)
            return 2; // call reg
        int length = 2;
        if (rm == 4)
        {
            if (sib is not byte s)
                return -1;
            length++;
            if (mod == 0 && (s & 7) == 5)
                length += 4; // [index*scale + disp32]
        }
        else if (mod == 0 && rm == 5)
        {
            length += 4; // [rip + disp32] on x64, [disp32] on x86
        }
        return mod switch
        {
            1 => length + 1,
            2 => length + 4,
            _ => length,
        };
    }
}
