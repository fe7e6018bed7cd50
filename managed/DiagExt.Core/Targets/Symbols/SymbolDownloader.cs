using System.Net;
using System.Net.Http.Headers;
using DiagExt.Core.Rendering;

namespace DiagExt.Core.Targets.Symbols;

/// <summary>What a download gave: the file in the cache, or one line saying why not (with the URL).</summary>
public sealed record SymbolDownload(string? File, string? Failure);

/// <summary>
/// Fetches one file by its symbol-store key. Careful by construction, because the bytes end up loaded into this
/// process: http(s) only, redirects followed by hand (at most four, never from https down to http), a size cap
/// checked before and while reading, a stall timeout and an overall one, the file's format checked before it is
/// kept, and a temporary file renamed into the cache only when complete, so a broken download never poisons it.
/// </summary>
public sealed class SymbolDownloader
{
    /// <summary>DACs are 2 - 20 MB; anything past this is not one.</summary>
    public const long MaxBytes = 256L * 1024 * 1024;

    private const int MaxRedirects = 4;
    private static readonly TimeSpan Overall = TimeSpan.FromMinutes(5);

    private readonly TimeSpan _stall;

    public SymbolDownloader(TimeSpan stall) => _stall = stall;

    public SymbolDownload Fetch(Uri server, string key, string cacheFolder, Func<ReadOnlySpan<byte>, bool> looksRight, string expected, CancellationToken cancellation)
    {
        var url = new Uri(server, key);
        try
        {
            return FetchAsync(url, key, cacheFolder, looksRight, expected, cancellation).GetAwaiter().GetResult();
        }
        catch (OperationCanceledException) when (cancellation.IsCancellationRequested)
        {
            throw;
        }
        catch (OperationCanceledException)
        {
            return Failed(url, $"no answer for {Quantity(_stall)} (the symbol timeout) or not done in {Quantity(Overall)}");
        }
        catch (HttpRequestException e)
        {
            return Failed(url, OneLine(e.InnerException?.Message ?? e.Message));
        }
        catch (IOException e)
        {
            return Failed(url, OneLine(e.Message));
        }
        catch (UnauthorizedAccessException e)
        {
            return Failed(url, $"cannot write the cache {cacheFolder}: {OneLine(e.Message)}");
        }
    }

    private async Task<SymbolDownload> FetchAsync(Uri url, string key, string cacheFolder, Func<ReadOnlySpan<byte>, bool> looksRight, string expected, CancellationToken cancellation)
    {
        using var overall = CancellationTokenSource.CreateLinkedTokenSource(cancellation);
        overall.CancelAfter(Overall);
        using var handler = new SocketsHttpHandler
        {
            AllowAutoRedirect = false,
            ConnectTimeout = _stall,
            AutomaticDecompression = DecompressionMethods.None,
            UseCookies = false,
        };
        using var client = new HttpClient(handler) { Timeout = Timeout.InfiniteTimeSpan };
        client.DefaultRequestHeaders.UserAgent.Add(new ProductInfoHeaderValue("diagext", ToolVersion.Current));

        Uri current = url;
        for (int hop = 0; ; hop++)
        {
            using var request = new HttpRequestMessage(HttpMethod.Get, current);
            using var headers = CancellationTokenSource.CreateLinkedTokenSource(overall.Token);
            headers.CancelAfter(_stall);
            using HttpResponseMessage response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, headers.Token).ConfigureAwait(false);
            int status = (int)response.StatusCode;
            if (status is >= 300 and < 400 && response.Headers.Location is { } location)
            {
                if (hop >= MaxRedirects)
                    return Failed(url, $"more than {MaxRedirects} redirects");
                Uri next = location.IsAbsoluteUri ? location : new Uri(current, location);
                if (next.Scheme is not ("http" or "https"))
                    return Failed(url, $"redirected to a {next.Scheme}: URL, which diagext does not follow");
                if (current.Scheme == "https" && next.Scheme == "http")
                    return Failed(url, $"redirected from https down to http ({next.GetLeftPart(UriPartial.Authority)}), which diagext does not follow");
                current = next;
                continue;
            }
            if (response.StatusCode == HttpStatusCode.NotFound)
                return Failed(url, "not on the server (404)");
            if (!response.IsSuccessStatusCode)
                return Failed(url, $"the server answered {status} {OneLine(response.ReasonPhrase ?? "")}".TrimEnd());
            if (response.Content.Headers.ContentLength is long length && length > MaxBytes)
                return Failed(url, $"the server offers {length:N0} bytes, more than a DAC can be ({MaxBytes / (1024 * 1024)} MB)");
            Stream body = await response.Content.ReadAsStreamAsync(overall.Token).ConfigureAwait(false);
            return await Save(body, url, key, cacheFolder, looksRight, expected, overall.Token).ConfigureAwait(false);
        }
    }

    private async Task<SymbolDownload> Save(Stream body, Uri url, string key, string cacheFolder, Func<ReadOnlySpan<byte>, bool> looksRight, string expected, CancellationToken cancellation)
    {
        string destination = Path.Combine(cacheFolder, key.Replace('/', Path.DirectorySeparatorChar));
        Directory.CreateDirectory(Path.GetDirectoryName(destination)!);
        string partial = $"{destination}.{Environment.ProcessId}.partial";
        try
        {
            long total = 0;
            byte[] buffer = new byte[81920];
            byte[] head = new byte[64];
            int headLength = 0;
            await using (var file = new FileStream(partial, FileMode.Create, FileAccess.Write, FileShare.None))
            {
                while (true)
                {
                    using var stall = CancellationTokenSource.CreateLinkedTokenSource(cancellation);
                    stall.CancelAfter(_stall);
                    int read = await body.ReadAsync(buffer, stall.Token).ConfigureAwait(false);
                    if (read == 0)
                        break;
                    total += read;
                    if (total > MaxBytes)
                        return Failed(url, $"the server sent more than {MaxBytes / (1024 * 1024)} MB, more than a DAC can be; stopped");
                    int copy = Math.Min(read, head.Length - headLength);
                    buffer.AsSpan(0, copy).CopyTo(head.AsSpan(headLength));
                    headLength += copy;
                    await file.WriteAsync(buffer.AsMemory(0, read), cancellation).ConfigureAwait(false);
                }
            }
            if (!looksRight(head.AsSpan(0, headLength)))
                return Failed(url, $"the server's file ({total:N0} bytes) is not {expected}; not kept");
            File.Move(partial, destination, overwrite: true);
            return new SymbolDownload(destination, null);
        }
        finally
        {
            File.Delete(partial);
        }
    }

    private static SymbolDownload Failed(Uri url, string why) => new(null, $"{url}: {why}");

    private static string OneLine(string s) => s.ReplaceLineEndings(" ").Trim();

    private static string Quantity(TimeSpan t) => t.TotalSeconds < 120 ? $"{t.TotalSeconds:0.#} s" : $"{t.TotalMinutes:0.#} min";
}
