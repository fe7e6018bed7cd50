using System.Security.Cryptography;
using DiagExt.Core.Errors;
using DiagExt.Core.Targets.Sources;

namespace DiagExt.Cli.Batch;

/// <summary>A dump to analyse and the other names with the same content, which get its result.</summary>
public sealed record DumpGroup(DumpCandidate Primary, IReadOnlyList<DumpCandidate> Copies);

/// <summary>
/// Finds dumps with identical content, so each is analysed once (a plain file in preference to a packed copy). Only dumps whose (unpacked) sizes
/// collide are hashed (SHA-256 of the content, unpacked on the fly for .gz/.zip members), so a folder of
/// distinct dumps costs no reading at all.
/// </summary>
public static class DuplicateGrouper
{
    /// <param name="listing">
    /// The whole batch when <paramref name="candidates"/> is one shard's share: a dump whose size another dump of the
    /// batch has is hashed even if that other is in another shard, so merge can group them (<see cref="ByContent"/>).
    /// </param>
    public static IReadOnlyList<DumpGroup> Group(IReadOnlyList<DumpCandidate> candidates, Action<string>? onHashing, CancellationToken cancellation, IReadOnlyList<DumpCandidate>? listing = null)
    {
        var twinSizes = (listing ?? candidates)
            .Where(c => c.Problem is null && c.Length is not null)
            .GroupBy(c => c.Length)
            .Where(g => g.Count() > 1)
            .Select(g => g.Key)
            .ToHashSet();
        int twins = candidates.Count(IsTwin);
        if (twins > 0)
            onHashing?.Invoke($"comparing the content of {twins} dumps of equal size");

        var hashed = candidates.Select(c => IsTwin(c) ? c with { ContentHash = Hash(c.Source, cancellation) } : c).ToList();
        return ByContent(hashed);

        bool IsTwin(DumpCandidate c) => c.Problem is null && twinSizes.Contains(c.Length);
    }

    /// <summary>
    /// Groups dumps by the <see cref="DumpCandidate.ContentHash"/> they carry, in listing order (each group under its
    /// first name, or its first plain file): the batch's grouping, and merge's over the hashes the shards read.
    /// </summary>
    public static IReadOnlyList<DumpGroup> ByContent(IReadOnlyList<DumpCandidate> candidates)
    {
        var groups = new List<(DumpCandidate Primary, List<DumpCandidate> Copies)>();
        var byHash = new Dictionary<string, int>(StringComparer.Ordinal);
        foreach (DumpCandidate candidate in candidates)
        {
            if (candidate.ContentHash is { } hash && byHash.TryGetValue(hash, out int index))
            {
                groups[index].Copies.Add(candidate);
                continue;
            }
            if (candidate.ContentHash is not null)
                byHash[candidate.ContentHash] = groups.Count;
            groups.Add((candidate, []));
        }
        return groups.Select(g => Cheapest(g.Primary, g.Copies)).ToList();
    }

    /// <summary>The copy to analyse: a plain file rather than one that must be unpacked first.</summary>
    private static DumpGroup Cheapest(DumpCandidate first, List<DumpCandidate> copies)
    {
        if (!first.Source.IsPacked || copies.FirstOrDefault(c => !c.Source.IsPacked) is not { } plain)
            return new DumpGroup(first, copies);
        return new DumpGroup(plain, copies.Where(c => !ReferenceEquals(c, plain)).Prepend(first).ToList());
    }

    /// <summary>SHA-256 of the dump's content, or null when it cannot be read (its analysis will say why).</summary>
    private static string? Hash(DumpSource source, CancellationToken cancellation)
    {
        try
        {
            using Stream content = DumpArchives.OpenContent(source);
            using var sha = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
            byte[] buffer = new byte[1024 * 1024];
            int read;
            while ((read = content.Read(buffer)) > 0)
            {
                cancellation.ThrowIfCancellationRequested();
                sha.AppendData(buffer, 0, read);
            }
            return Convert.ToHexString(sha.GetHashAndReset());
        }
        catch (Exception e) when (e is DiagExtException or IOException or InvalidDataException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
