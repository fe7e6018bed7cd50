namespace DiagExt.Core.Il;

/// <summary>
/// The exceptions System.Reflection.Metadata throws for malformed metadata. It documents BadImageFormatException,
/// but a damaged image also gets OverflowException (stream headers), InvalidCastException (a token of the wrong
/// table cast to a handle), ArgumentException, InvalidOperationException, and InvalidDataException (an embedded
/// PDB whose deflate stream is broken): all of them mean "bad input".
/// </summary>
public static class MalformedMetadata
{
    public static bool Is(Exception e) =>
        e is BadImageFormatException or OverflowException or InvalidCastException or ArgumentException or InvalidOperationException
            or InvalidDataException;
}
