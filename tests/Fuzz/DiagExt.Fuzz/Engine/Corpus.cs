using System.Security.Cryptography;

namespace DiagExt.Fuzz.Engine;

/// <summary>
/// The inputs mutation starts from: the seeds, then every input whose behaviour signature was new. This is the
/// feedback loop without instrumentation: no branch coverage is measured, but an input that makes a reader take a
/// new exit (a new exception site, another lock state, a different finding, another count bucket) is kept.
/// </summary>
public sealed class Corpus(string? saveDirectory, long byteBudget = 1024L * 1024 * 1024)
{
    private readonly List<Entry> _entries = [];
    private readonly HashSet<string> _signatures = [];
    private readonly HashSet<string> _contents = [];
    private long _bytes;
    private int _large;

    /// <summary>Inputs above this size (whole dumps) are kept at most <see cref="MaxLarge"/> times, so small ones keep room.</summary>
    public const int LargeInput = 4 * 1024 * 1024;

    public const int MaxLarge = 32;

    public int Count => _entries.Count;

    public int Signatures => _signatures.Count;

    public sealed class Entry(byte[] data, string origin)
    {
        private IReadOnlyList<Field>? _fields;

        public byte[] Data { get; } = data;

        public string Origin { get; } = origin;

        public IReadOnlyList<Field> FieldsOf(IFuzzTarget target) => _fields ??= SafeFields(target, Data);

        private static IReadOnlyList<Field> SafeFields(IFuzzTarget target, byte[] data)
        {
            try
            {
                return target.Fields(data);
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                return []; // a mutated input the field finder cannot parse is mutated blindly
            }
        }
    }

    /// <summary>
    /// Adds a seed whatever its behaviour (duplicates by content are dropped). Inputs kept by earlier runs
    /// (<paramref name="withinBudget"/>) count against the byte budget like new ones; the seeds themselves do not.
    /// </summary>
    public void AddSeed(byte[] data, string origin, bool withinBudget = false)
    {
        if (withinBudget && (_bytes + data.Length > byteBudget || (data.Length > LargeInput && _large >= MaxLarge)))
            return;
        if (_contents.Add(ContentHash(data)))
        {
            _entries.Add(new Entry(data, origin));
            _bytes += data.Length;
            _large += withinBudget && data.Length > LargeInput ? 1 : 0;
        }
    }

    /// <summary>Records a signature seen while running the seeds, so only later novelty grows the corpus.</summary>
    public void Observe(string signature) => _signatures.Add(signature);

    /// <summary>Keeps <paramref name="data"/> when its signature is new; returns whether it was kept.</summary>
    public bool Consider(ReadOnlySpan<byte> data, string signature)
    {
        if (!_signatures.Add(signature))
            return false;
        if (_bytes + data.Length > byteBudget || (data.Length > LargeInput && _large >= MaxLarge))
            return false; // the behaviour counts as seen; the bytes do not fit
        byte[] copy = data.ToArray();
        string hash = ContentHash(copy);
        if (!_contents.Add(hash))
            return false;
        _entries.Add(new Entry(copy, "kept"));
        _bytes += copy.Length;
        _large += copy.Length > LargeInput ? 1 : 0;
        if (saveDirectory is not null)
        {
            Directory.CreateDirectory(saveDirectory);
            InputFiles.Write(Path.Combine(saveDirectory, hash), copy);
        }
        return true;
    }

    public Entry Pick(Random rng) => _entries[rng.Next(_entries.Count)];

    public IReadOnlyList<Entry> Entries => _entries;

    private static string ContentHash(byte[] data) => Convert.ToHexString(SHA256.HashData(data))[..16].ToLowerInvariant();
}
