using System.Diagnostics;

namespace DiagExt.Core.Heap;

/// <summary>
/// The time a heap pass spends on each interest: its <see cref="IHeapInterest.Wants"/> (once per MethodTable) and the
/// hand-over of each object it wants (<see cref="HeapFinds.Add"/>). Timed per call and per wanted object, not per
/// segment: the objects of one segment go to different interests in any order, so a coarser batch could not say whose
/// time it was, and only wanted objects (a few in a thousand on the bench dump) pay the clock, never the walk's
/// other objects. Used by the walk's one thread only.
/// </summary>
internal sealed class InterestClock(int interests)
{
    private readonly long[] _ticks = new long[interests];

    public static long Now => Stopwatch.GetTimestamp();

    /// <summary>Charges the time since <paramref name="since"/> to interest <paramref name="interest"/>; returns now, where the next charge starts.</summary>
    public long Charge(int interest, long since)
    {
        long now = Stopwatch.GetTimestamp();
        _ticks[interest] += now - since;
        return now;
    }

    public TimeSpan Of(int interest) => Stopwatch.GetElapsedTime(0, _ticks[interest]);
}
