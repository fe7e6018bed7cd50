using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// What every wait source and verdict reads from besides the graph: the target and its threads, the heap pass's finds,
/// how to name objects by the statics that hold them, and where to say what was set aside. A watch's cheap look has no
/// heap pass and names nothing (<see cref="Watching"/>).
/// </summary>
internal sealed record HangScene(
    Target Target,
    ThreadIndex Threads,
    Waitables Waitables,
    Func<IReadOnlySet<ulong>, LockNames> Naming,
    Action<string> Note,
    Action<string> SetAside,
    CancellationToken Cancellation)
{
    /// <summary>A live watch's look: no heap pass, no static-root search; only the verdicts marked for it run.</summary>
    public bool Watching { get; init; }

    /// <summary>A watch's look: objects named by address only, nothing said aside.</summary>
    public static HangScene ForWatch(Target target, CancellationToken cancellation) =>
        new(target, new ThreadIndex(target.Threads), Waitables.None, _ => LockNames.None, _ => { }, _ => { }, cancellation) { Watching = true };
}
