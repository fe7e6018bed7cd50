namespace DiagExt.Core.Reports;

/// <summary>
/// What makes a batch report one shard's part: its shard (Index of Count, from 0), and the listing all shards split,
/// as the manifest JSON every worker built or read (<paramref name="Manifest"/>, kept verbatim) and its SHA-256
/// (<paramref name="ManifestHash"/>). Parts of one batch carry the same manifest, so 'diagext merge' can name a
/// missing shard's dumps from any of them.
/// </summary>
public sealed record BatchPart(int Index, int Count, string ManifestHash, string Manifest);
