namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>What the dump shows of a cycle through the loader lock.</summary>
/// <param name="Partner">For a certain deadlock, the thread behind the lock that the owner waits for.</param>
/// <param name="CouldSignal">For a likely one, the threads behind the lock that could give what the owner waits for.</param>
/// <param name="Sentence">The verdict's last sentence ("Deadlock: ...", "Likely deadlock: ..."); null when there is none.</param>
internal sealed record CycleProof(DeadlockCertainty Certainty, Victim? Partner, IReadOnlyList<Victim> CouldSignal, string? Sentence)
{
    public static CycleProof None { get; } = new(DeadlockCertainty.None, null, [], null);
}
