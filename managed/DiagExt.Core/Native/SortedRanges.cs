namespace DiagExt.Core.Native;

/// <summary>A range of target addresses: a minidump memory range, a core's PT_LOAD.</summary>
internal interface IAddressRange
{
    ulong Start { get; }

    ulong Size { get; }
}

/// <summary>Finds the range holding an address among ranges sorted by start that do not overlap.</summary>
internal static class SortedRanges
{
    /// <summary>The index of the range holding <paramref name="address"/>, or -1.</summary>
    public static int Find<T>(T[] ranges, ulong address) where T : IAddressRange
    {
        int lo = 0, hi = ranges.Length - 1;
        while (lo <= hi)
        {
            int mid = (lo + hi) >>> 1;
            if (address < ranges[mid].Start)
                hi = mid - 1;
            else if (address - ranges[mid].Start >= ranges[mid].Size)
                lo = mid + 1;
            else
                return mid;
        }
        return -1;
    }
}
