using System.Diagnostics;

namespace DiagExt.Core.Heap;

/// <summary>
/// The time a heap pass spends on each interest: its <see cref="IHeapInterest.Wants"/>, once per MethodTable, timed
/// per call; and the hand-over of the objects it wants (<see cref="HeapFinds.Add"/>: a lock, an append, a pulse),
/// timed on one wanted object in <see cref="SampleEvery"/> and scaled by the objects handed over. Not every object:
/// a clock read costs about as much as a hand-over (30-50 ns on this VM's kvm-clock when quiet, 134-225 ns measured at
/// load 9), so timing each would add its own cost to what it measures. Not per segment either: a segment's objects go
/// to different interests in any order, so a batch could not say whose time it was. Used by the walk's thread only.
/// </summary>
internal sealed class InterestClock(int interests)
{
    /// <summary>One wanted object in this many is timed (a power of two).</summary>
    public const int SampleEvery = 16;

    private readonly long[] _typeTicks = new long[interests];
    private readonly long[] _sampleTicks = new long[interests];
    private readonly long[] _samples = new long[interests];
    private long _handOvers;

    public static long Now => Stopwatch.GetTimestamp();

    /// <summary>Charges the time since <paramref name="since"/> (one Wants call) to <paramref name="interest"/>; returns now.</summary>
    public long ChargeType(int interest, long since)
    {
        long now = Stopwatch.GetTimestamp();
        _typeTicks[interest] += now - since;
        return now;
    }

    /// <summary>Whether the next wanted object's hand-over is one of the timed ones.</summary>
    public bool TimeNext() => (_handOvers++ & (SampleEvery - 1)) == 0;

    /// <summary>Charges a timed hand-over to <paramref name="interest"/>; returns now.</summary>
    public long ChargeSample(int interest, long since)
    {
        long now = Stopwatch.GetTimestamp();
        _sampleTicks[interest] += now - since;
        _samples[interest]++;
        return now;
    }

    /// <summary>Its Wants calls, and its timed hand-overs scaled to the <paramref name="objects"/> it was handed.</summary>
    public TimeSpan Of(int interest, long objects)
    {
        long handOver = _samples[interest] == 0 ? 0 : (long)((double)_sampleTicks[interest] * objects / _samples[interest]);
        return Stopwatch.GetElapsedTime(0, _typeTicks[interest] + handOver);
    }
}
