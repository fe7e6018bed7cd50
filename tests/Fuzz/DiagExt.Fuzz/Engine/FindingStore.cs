using System.Security.Cryptography;
using System.Text;

namespace DiagExt.Fuzz.Engine;

/// <summary>
/// Saves each distinct failure once (by signature) as the input that caused it plus a text file with the details,
/// under artifacts/fuzz/&lt;target&gt;/findings. Later hits of the same signature only count.
/// </summary>
public sealed class FindingStore(string directory)
{
    private readonly Dictionary<string, int> _hits = [];

    public string Directory { get; } = directory;

    public IReadOnlyDictionary<string, int> Hits => _hits;

    /// <summary>Records a failure; returns the path of the saved input when the signature is new.</summary>
    public string? Record(Failure failure, ReadOnlySpan<byte> input)
    {
        _hits[failure.Signature] = _hits.GetValueOrDefault(failure.Signature) + 1;
        string stem = Path.Combine(Directory, $"{failure.Kind.ToString().ToLowerInvariant()}-{Hash(failure.Signature)}");
        if (_hits[failure.Signature] > 1 || File.Exists(stem + ".bin"))
            return null;
        System.IO.Directory.CreateDirectory(Directory);
        File.WriteAllBytes(stem + ".bin", input.ToArray());
        File.WriteAllText(stem + ".txt", $"{failure.Signature}\ninput: {input.Length:N0} bytes\n\n{failure.Detail}\n");
        return stem + ".bin";
    }

    public static string Hash(string text) => Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes(text)))[..12].ToLowerInvariant();
}
