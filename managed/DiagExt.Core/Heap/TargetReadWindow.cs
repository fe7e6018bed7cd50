using System.Runtime.CompilerServices;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Heap;

/// <summary>
/// Serves many small reads at ascending addresses from one large read: a 64 KB window of target memory,
/// refilled only when a read falls outside it. Sort the addresses first; every dump read is a system call.
/// </summary>
internal sealed class TargetReadWindow(Target target)
{
    private const int WindowBytes = 64 * 1024;

    private readonly byte[] _window = new byte[WindowBytes];
    private ulong _start;
    private int _length;

    /// <summary>Fills <paramref name="destination"/> from <paramref name="address"/>; false if the memory is not all in the target.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // hundreds of thousands of calls in one batch
    public bool Read(ulong address, Span<byte> destination)
    {
        if (destination.Length > WindowBytes)
            return target.ReadMemory(address, destination) == destination.Length;
        if (!Holds(address, destination.Length))
        {
            _start = address;
            _length = target.ReadMemory(address, _window);
            if (!Holds(address, destination.Length))
                return false;
        }
        _window.AsSpan((int)(address - _start), destination.Length).CopyTo(destination);
        return true;
    }

    private bool Holds(ulong address, int length) =>
        address >= _start && address - _start + (ulong)length <= (ulong)_length;
}
