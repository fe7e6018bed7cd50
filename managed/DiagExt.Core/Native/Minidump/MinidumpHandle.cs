namespace DiagExt.Core.Native.Minidump;

/// <summary>
/// One handle of the dumped process (MINIDUMP_HANDLE_DESCRIPTOR, or _2 with object information): its value, the
/// object's type name ("Thread", "Event", ...) and name when the writer recorded them, and the raw object-specific
/// records (MINIDUMP_HANDLE_OBJECT_INFORMATION: an info type and its bytes, whose layout the format leaves open).
/// </summary>
internal sealed record MinidumpHandle(ulong Value, string? TypeName, string? ObjectName, IReadOnlyList<MinidumpHandleObjectInfo> ObjectInfo);

/// <param name="InfoType">MINIDUMP_HANDLE_OBJECT_INFORMATION_TYPE: 1 MiniThreadInformation1, 6 MiniEventInformation1, ...</param>
internal sealed record MinidumpHandleObjectInfo(uint InfoType, byte[] Data)
{
    public const uint ThreadInformation1 = 1;
}
