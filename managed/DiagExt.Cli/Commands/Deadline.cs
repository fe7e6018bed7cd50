using System.Globalization;
using DiagExt.Core.Errors;

namespace DiagExt.Cli.Commands;

/// <summary>
/// --timeout for one target: cancels the analysis when the time is up (every loop over target data checks
/// the token), and if it is still running <see cref="Grace"/> later (stuck in a DAC call, which cannot be
/// cancelled) ends the process through <see cref="CommandIo.Abort"/>; a live target is then let go by the
/// kernel (see LinuxThreadFreezer).
/// </summary>
public sealed class Deadline : IDisposable
{
    public static readonly TimeSpan Grace = TimeSpan.FromSeconds(10);

    private readonly CancellationTokenSource _source;
    private readonly Timer? _backstop;
    private readonly TimeSpan? _limit;

    public Deadline(TimeSpan? limit, CommandIo io)
    {
        _limit = limit;
        _source = CancellationTokenSource.CreateLinkedTokenSource(io.Cancellation);
        if (limit is not { } time)
            return;
        _source.CancelAfter(time);
        if (io.Abort is { } abort)
            _backstop = new Timer(_ => abort($"timed out after {Describe(time)} (--timeout) and the analysis did not stop"), null, time + Grace, Timeout.InfiniteTimeSpan);
    }

    public CancellationToken Token => _source.Token;

    /// <summary>True when the token was cancelled by the timeout, not by Ctrl+C.</summary>
    public bool Expired(CancellationToken outer) => _source.IsCancellationRequested && !outer.IsCancellationRequested;

    public DiagExtException TimedOut(string target) => new($"{target}: timed out after {Describe(_limit ?? TimeSpan.Zero)} (--timeout)");

    public static string Describe(TimeSpan t) => t.TotalSeconds switch
    {
        < 1 => string.Format(CultureInfo.InvariantCulture, "{0:0} ms", t.TotalMilliseconds),
        < 120 => string.Format(CultureInfo.InvariantCulture, "{0:0.#} s", t.TotalSeconds),
        _ => string.Format(CultureInfo.InvariantCulture, "{0:0.#} min", t.TotalMinutes),
    };

    public void Dispose()
    {
        _backstop?.Dispose();
        _source.Dispose();
    }
}
