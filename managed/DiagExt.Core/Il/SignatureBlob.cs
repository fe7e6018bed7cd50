using System.Reflection.Metadata;

namespace DiagExt.Core.Il;

/// <summary>
/// Walks a signature blob (ECMA-335 II.23.2) before System.Reflection.Metadata decodes it, because its decoder sizes
/// arrays from a signature's counts before reading a single element: a method signature claiming 0x1FFFFFFF
/// parameters makes it allocate 4 GB. Every count must fit the bytes left in the blob (each element takes at least
/// one), and nesting is bounded; anything else is a <see cref="BadImageFormatException"/>.
/// </summary>
internal static class SignatureBlob
{
    private const int MaxDepth = 64;

    /// <summary>The runtime's limit (MAX_RANK): no loadable type has more dimensions.</summary>
    private const int MaxArrayRank = 32;

    public static void CheckMethod(BlobReader blob) => Method(ref blob, 0);

    public static void CheckLocals(BlobReader blob)
    {
        if (blob.ReadByte() != 0x07)
            throw new BadImageFormatException("not a local variable signature");
        int count = Count(ref blob);
        for (int i = 0; i < count; i++)
            Type(ref blob, 0);
    }

    public static void CheckType(BlobReader blob) => Type(ref blob, 0);

    public static void CheckField(BlobReader blob)
    {
        if (blob.ReadByte() != 0x06)
            throw new BadImageFormatException("not a field signature");
        Type(ref blob, 0);
    }

    private static void Method(ref BlobReader blob, int depth)
    {
        byte header = blob.ReadByte();
        if ((header & 0x10) != 0) // generic: the generic parameter count comes first
            blob.ReadCompressedInteger();
        int parameters = Count(ref blob);
        for (int i = 0; i <= parameters; i++) // the return type, then each parameter
            Type(ref blob, depth + 1);
    }

    private static void Type(ref BlobReader blob, int depth)
    {
        if (depth > MaxDepth)
            throw new BadImageFormatException($"signature nests deeper than {MaxDepth}");
        byte code = blob.ReadByte();
        switch (code)
        {
            case >= 0x01 and <= 0x0E or 0x16 or 0x18 or 0x19 or 0x1C: // void, primitives, string, typedref, I, U, object
                return;
            case 0x0F or 0x10 or 0x1D or 0x45 or 0x41: // pointer, byref, szarray, pinned, sentinel: a type follows
                Type(ref blob, depth + 1);
                return;
            case 0x1F or 0x20: // custom modifier: a type token, then the modified type
                blob.ReadCompressedInteger();
                Type(ref blob, depth + 1);
                return;
            case 0x11 or 0x12: // valuetype, class
            case 0x13 or 0x1E: // generic parameter of the type or method
                blob.ReadCompressedInteger();
                return;
            case 0x14: // array: element type, rank, sizes, lower bounds
                Type(ref blob, depth + 1);
                // The name of a rank-r array holds r - 1 commas: a rank of 0x1FFFFFFF would be a 1 GB string.
                if (blob.ReadCompressedInteger() is int rank and > MaxArrayRank)
                    throw new BadImageFormatException($"an array of rank {rank}, above the runtime's limit of {MaxArrayRank}");
                for (int sizes = Count(ref blob), i = 0; i < sizes; i++)
                    blob.ReadCompressedInteger();
                for (int bounds = Count(ref blob), i = 0; i < bounds; i++)
                    blob.ReadCompressedSignedInteger();
                return;
            case 0x15: // generic instantiation: class or valuetype, the generic type, its arguments
                // System.Reflection.Metadata decodes any type here, so "15 03 C2 30 30 30" is Char then 36 million
                // arguments to it, while a walk that only skipped a byte and a token read a count of 0 further on.
                if (blob.ReadByte() is not (0x11 or 0x12))
                    throw new BadImageFormatException("a generic instantiation of something other than a class or value type");
                blob.ReadCompressedInteger();
                for (int arguments = Count(ref blob), i = 0; i < arguments; i++)
                    Type(ref blob, depth + 1);
                return;
            case 0x1B: // function pointer: a method signature
                Method(ref blob, depth + 1);
                return;
            default:
                throw new BadImageFormatException($"unknown element type 0x{code:x2} in a signature");
        }
    }

    private static int Count(ref BlobReader blob)
    {
        int count = blob.ReadCompressedInteger();
        if (count > blob.RemainingBytes)
            throw new BadImageFormatException($"a signature claims {count} elements in {blob.RemainingBytes} bytes");
        return count;
    }
}
