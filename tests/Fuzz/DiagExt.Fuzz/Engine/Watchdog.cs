using System.Diagnostics;

namespace DiagExt.Fuzz.Engine;

/// <summary>
/// Bounds each input in time. A .NET thread cannot be aborted, so a hung input ends the worker: the watchdog hands
/// the input to the hang callback (which saves it) and exits with <see cref="HangExitCode"/>; the supervisor restarts it.
/// </summary>
public sealed class Watchdog : IDisposable
{
    public const int HangExitCode = 3;

    private readonly TimeSpan _limit;
    private readonly Action<byte[], TimeSpan> _onHang;
    private readonly Thread _thread;
    private readonly Stopwatch _clock = Stopwatch.StartNew();
    private readonly object _gate = new();
    private Func<byte[]>? _input;
    private long _armedAt = -1;
    private volatile bool _stopped;

    private readonly bool _exitOnHang;

    public Watchdog(TimeSpan limit, Action<byte[], TimeSpan> onHang, bool exitOnHang)
    {
        _exitOnHang = exitOnHang;
        _limit = limit;
        _onHang = onHang;
        _thread = new Thread(Watch) { IsBackground = true, Name = "fuzz watchdog" };
        _thread.Start();
    }

    /// <param name="snapshot">Copies the input; called only on a hang, when the worker thread is stuck and the input still.</param>
    public void Arm(Func<byte[]> snapshot)
    {
        lock (_gate)
        {
            _input = snapshot;
            _armedAt = _clock.ElapsedMilliseconds;
        }
    }

    public void Disarm()
    {
        lock (_gate)
            _armedAt = -1;
    }

    /// <summary>Whether an input overran the limit (in-process runs report it and stop).</summary>
    public bool Hung { get; private set; }

    public void Dispose() => _stopped = true;

    private void Watch()
    {
        while (!_stopped)
        {
            Thread.Sleep(100);
            Func<byte[]>? hung = null;
            long ran = 0;
            lock (_gate)
            {
                if (_armedAt >= 0 && (ran = _clock.ElapsedMilliseconds - _armedAt) > _limit.TotalMilliseconds)
                    hung = _input;
            }
            if (hung is not null)
            {
                Hung = true;
                _onHang(hung(), TimeSpan.FromMilliseconds(ran));
                if (_exitOnHang)
                    Environment.Exit(HangExitCode);
                return; // in-process: the stuck thread cannot be stopped; the caller sees Hung and its own timeout

            }
        }
    }
}
