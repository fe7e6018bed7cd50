using System.Globalization;
using DiagExt.Core.Rendering;

namespace DiagExt.Cli.Batch;

public enum ProgressMode
{
    /// <summary>--quiet: nothing.</summary>
    Quiet,

    /// <summary>stderr is not a terminal: one line per finished dump, and a heartbeat while long ones run.</summary>
    Lines,

    /// <summary>stderr is a terminal: one live line, redrawn at most <see cref="BatchProgress.RedrawInterval"/>.</summary>
    Bar,
}

/// <summary>
/// Shows a batch's progress on stderr. Rate-limited (the bar is redrawn at most ten times a second; in
/// line mode a "still running" line comes at most every <see cref="HeartbeatInterval"/>), switched off by
/// --quiet, and driven by an injected clock so tests can check all of it without waiting.
/// </summary>
public sealed class BatchProgress
{
    public static readonly TimeSpan RedrawInterval = TimeSpan.FromMilliseconds(100);
    public static readonly TimeSpan HeartbeatInterval = TimeSpan.FromSeconds(30);

    private readonly TextWriter _error;
    private readonly ProgressMode _mode;
    private readonly TimeProvider _clock;
    private readonly int _width;
    private readonly long _start;
    private readonly Dictionary<string, long> _running = new(StringComparer.Ordinal);
    private readonly object _gate = new();
    private int _total;
    private int _done;
    private long _lastDraw = long.MinValue;
    private long _lastLine;
    private bool _barShown;
    private bool _begun;

    public BatchProgress(TextWriter error, ProgressMode mode, TimeProvider clock, int width = 80)
    {
        _error = error;
        _mode = mode;
        _clock = clock;
        _width = Math.Max(40, width);
        _start = clock.GetTimestamp();
        _lastLine = _start;
    }

    public void Begin(int total)
    {
        lock (_gate)
        {
            _total = total;
            _begun = true;
            Draw(force: true);
        }
    }

    /// <summary>A one-off message (e.g. "comparing the content of 4 dumps"), shown in both modes.</summary>
    public void Message(string text)
    {
        lock (_gate)
        {
            if (_mode == ProgressMode.Quiet)
                return;
            ClearBar();
            WriteLine(text);
            Draw(force: true);
        }
    }

    public void Started(string name)
    {
        lock (_gate)
        {
            _running[name] = _clock.GetTimestamp();
            Draw(force: false);
        }
    }

    public void Finished(string name, string outcome)
    {
        lock (_gate)
        {
            _running.Remove(name);
            _done++;
            if (_mode == ProgressMode.Lines)
                WriteLine($"[{_done}/{_total}] {name}: {outcome}");
            Draw(force: false);
        }
    }

    /// <summary>Called periodically by the scheduler: keeps the bar's clock moving, and says what is still running.</summary>
    public void Tick()
    {
        lock (_gate)
        {
            if (_mode == ProgressMode.Lines && _running.Count > 0 && _clock.GetElapsedTime(_lastLine) >= HeartbeatInterval)
                WriteLine($"still analysing {RunningList()}");
            Draw(force: false);
        }
    }

    /// <summary>Removes the bar so the summary starts on a clean line.</summary>
    public void End()
    {
        lock (_gate)
            ClearBar();
    }

    private void Draw(bool force)
    {
        if (_mode != ProgressMode.Bar || !_begun)
            return; // before Begin there is nothing to count yet
        long now = _clock.GetTimestamp();
        if (!force && _lastDraw != long.MinValue && _clock.GetElapsedTime(_lastDraw, now) < RedrawInterval)
            return;
        _lastDraw = now;
        const int barWidth = 20;
        int filled = _total == 0 ? 0 : _done * barWidth / _total;
        string bar = new string('#', filled) + new string('.', barWidth - filled);
        string running = _running.Count == 0 ? "" : $"  {_running.Count} running: {RunningList()}";
        string line = $"[{bar}] {_done}/{_total} dumps  {Clock(_clock.GetElapsedTime(_start, now))}{running}";
        if (line.Length > _width - 1)
            line = line[..(_width - 2)] + "…";
        _error.Write("\r" + line + "\u001b[K");
        _error.Flush();
        _barShown = true;
    }

    private void ClearBar()
    {
        if (!_barShown)
            return;
        _error.Write("\r\u001b[K");
        _error.Flush();
        _barShown = false;
    }

    private string RunningList() =>
        string.Join(", ", _running.OrderBy(r => r.Value).Select(r => $"{TextSanitizer.Sanitize(Path.GetFileName(r.Key))} ({Clock(_clock.GetElapsedTime(r.Value))})"));

    private void WriteLine(string text)
    {
        _error.WriteLine(TextSanitizer.Sanitize(text));
        _lastLine = _clock.GetTimestamp();
    }

    private static string Clock(TimeSpan t) =>
        t.TotalHours >= 1 ? t.ToString(@"h\:mm\:ss", CultureInfo.InvariantCulture) : t.ToString(@"m\:ss", CultureInfo.InvariantCulture);
}
