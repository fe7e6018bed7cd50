namespace DiagExt.Core.Native.Minidump;

internal static class FileTimes
{
    /// <summary>FILETIME (100 ns since 1601) to UTC; null for 0 or values outside DateTime's range.</summary>
    public static DateTime? ToUtc(ulong fileTime)
    {
        if (fileTime == 0 || fileTime > (ulong)DateTime.MaxValue.ToFileTimeUtc())
            return null;
        return DateTime.FromFileTimeUtc((long)fileTime);
    }
}
