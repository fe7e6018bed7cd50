using System.Security.Cryptography;
using System.Text.Encodings.Web;
using System.Text.Json;
using DiagExt.Core.Errors;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets.Sources;

namespace DiagExt.Cli.Batch;

/// <summary>
/// The listing a sharded batch splits: every dump found (its source, size, or why it already failed) in discovery
/// order, and the files skipped. Written once with --write-manifest and passed to every worker with --manifest, the
/// shares stay fixed however the folder changes afterwards (a dump gone by then fails as that dump's input error in
/// its part; a new one is not in the batch). Without a manifest each worker lists the inputs itself and builds the
/// same bytes from the same listing; if the folder changed between workers, their hashes differ and merge refuses the
/// parts. The hash is the SHA-256 of these bytes (a file's, as read; trailing line ends aside).
/// </summary>
public sealed class BatchManifest
{
    private const string Kind = "diagext-batch-manifest";
    private const int Version = 1;

    private BatchManifest(IReadOnlyList<string> inputs, IReadOnlyList<DumpCandidate> dumps, IReadOnlyList<SkippedFile> skipped, byte[] bytes)
    {
        Inputs = inputs;
        Dumps = dumps;
        Skipped = skipped;
        // Trailing line ends aside: a part carries the manifest as a JSON value, which keeps everything else.
        Bytes = bytes.AsSpan().TrimEnd("\r\n\t "u8).ToArray();
        Hash = Convert.ToHexString(SHA256.HashData(Bytes)).ToLowerInvariant();
    }

    public IReadOnlyList<string> Inputs { get; }

    public IReadOnlyList<DumpCandidate> Dumps { get; }

    public IReadOnlyList<SkippedFile> Skipped { get; }

    public byte[] Bytes { get; }

    public string Hash { get; }

    public string Text => System.Text.Encoding.UTF8.GetString(Bytes);

    public static BatchManifest From(IReadOnlyList<string> inputs, DumpDiscovery discovery) =>
        new(inputs, discovery.Dumps.ToList(), discovery.Skipped.ToList(), Serialize(inputs, discovery.Dumps, discovery.Skipped));

    /// <summary>A manifest file; one line and exit 2 if it cannot be read or is not one.</summary>
    public static BatchManifest Read(string path)
    {
        byte[] bytes;
        try
        {
            bytes = File.ReadAllBytes(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new DiagExtException($"{path}: cannot read the manifest: {e.Message}", e);
        }
        return Parse(bytes, path);
    }

    /// <summary>A manifest from its bytes (a file, or the copy a part carries); <paramref name="origin"/> names it in errors.</summary>
    public static BatchManifest Parse(byte[] bytes, string origin)
    {
        try
        {
            using JsonDocument document = JsonDocument.Parse(bytes);
            JsonElement root = document.RootElement;
            if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("kind", out JsonElement kind) || kind.GetString() != Kind)
                throw new JsonException($"not a diagext batch manifest (no \"kind\": \"{Kind}\")");
            if (!root.TryGetProperty("version", out JsonElement version) || version.GetInt32() != Version)
                throw new JsonException($"a manifest of another version (this diagext reads version {Version})");
            var inputs = root.GetProperty("inputs").EnumerateArray().Select(e => e.GetString() ?? "").ToList();
            var dumps = root.GetProperty("dumps").EnumerateArray().Select(ReadDump).ToList();
            var skipped = root.GetProperty("skipped").EnumerateArray()
                .Select(s => new SkippedFile(s.GetProperty("name").GetString() ?? "", s.GetProperty("reason").GetString() ?? "")).ToList();
            return new BatchManifest(inputs, dumps, skipped, bytes);
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException or KeyNotFoundException or FormatException)
        {
            throw new DiagExtException($"{origin}: not a readable manifest: {e.Message}", e);
        }
    }

    public void Write(string path)
    {
        try
        {
            File.WriteAllBytes(path, [.. Bytes, (byte)'\n']);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new DiagExtException($"{path}: cannot write the manifest: {e.Message}", e);
        }
    }

    private static DumpCandidate ReadDump(JsonElement d)
    {
        string container = d.GetProperty("container").GetString() ?? "";
        DumpContainer parsed = container switch
        {
            "none" => DumpContainer.None,
            "gzip" => DumpContainer.Gzip,
            "zip" => DumpContainer.Zip,
            _ => throw new JsonException($"a dump in an unknown container '{container}'"),
        };
        string? entry = d.TryGetProperty("entry", out JsonElement e) ? e.GetString() : null;
        long? size = d.TryGetProperty("sizeBytes", out JsonElement s) ? s.GetInt64() : null;
        string? problem = d.TryGetProperty("problem", out JsonElement p) ? p.GetString() : null;
        return new DumpCandidate(new DumpSource(d.GetProperty("path").GetString() ?? "", parsed, entry), size, problem);
    }

    private static byte[] Serialize(IReadOnlyList<string> inputs, IReadOnlyList<DumpCandidate> dumps, IReadOnlyList<SkippedFile> skipped)
    {
        using var buffer = new MemoryStream();
        using (var w = new Utf8JsonWriter(buffer, new JsonWriterOptions { Indented = true, Encoder = JavaScriptEncoder.Default }))
        {
            w.WriteStartObject();
            w.WriteString("kind", Kind);
            w.WriteNumber("version", Version);
            w.WriteStartArray("inputs");
            foreach (string input in inputs)
                w.WriteStringValue(input);
            w.WriteEndArray();
            w.WriteStartArray("dumps");
            foreach (DumpCandidate dump in dumps)
            {
                w.WriteStartObject();
                w.WriteString("path", dump.Source.Path);
                w.WriteString("container", dump.Source.Container.ToString().ToLowerInvariant());
                if (dump.Source.Entry is { } entry)
                    w.WriteString("entry", entry);
                if (dump.Length is long size)
                    w.WriteNumber("sizeBytes", size);
                if (dump.Problem is { } problem)
                    w.WriteString("problem", problem);
                w.WriteEndObject();
            }
            w.WriteEndArray();
            w.WriteStartArray("skipped");
            foreach (SkippedFile file in skipped)
            {
                w.WriteStartObject();
                w.WriteString("name", file.Name);
                w.WriteString("reason", file.Reason);
                w.WriteEndObject();
            }
            w.WriteEndArray();
            w.WriteEndObject();
        }
        return buffer.ToArray();
    }
}
