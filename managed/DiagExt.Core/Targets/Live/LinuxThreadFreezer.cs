using System.Diagnostics;
using DiagExt.Core.Errors;

namespace DiagExt.Core.Targets.Live;

/// <summary>
/// Stops every thread of a live Linux process while diagext reads it, and lets them go on Dispose.
/// Threads are taken with PTRACE_SEIZE + PTRACE_INTERRUPT, not PTRACE_ATTACH (what ClrMD's own suspend
/// does): ATTACH stops a thread by sending it SIGSTOP, and if diagext dies before it has waited for that
/// stop (SIGKILL during the attach loop) the pending SIGSTOP group-stops the whole process, which then
/// stays in state T with nobody to resume it (measured on the DictCycle sample). A seized thread stops
/// without a signal, and when its tracer dies the kernel detaches and resumes it.
/// ptrace binds a tracee to the tracing thread: create, use (ClrMD reads registers with PTRACE_GETREGS)
/// and dispose this on one thread.
/// </summary>
internal sealed class LinuxThreadFreezer : IDisposable
{
    private const int MaxPasses = 100;
    private static readonly TimeSpan StopDeadline = TimeSpan.FromSeconds(5);

    private readonly int _pid;
    private const int NotStoppedYet = -1;

    private readonly Dictionary<int, int> _held = new(); // tid -> signal to hand back on detach (0: none), or NotStoppedYet
    private readonly int _ownerThread = Environment.CurrentManagedThreadId;
    private readonly Stopwatch _paused = new();

    private LinuxThreadFreezer(int pid) => _pid = pid;

    /// <summary>How long the process has been stopped so far (or was, once disposed).</summary>
    public TimeSpan Paused => _paused.Elapsed;

    public int ThreadCount => _held.Count;

    public static LinuxThreadFreezer Freeze(int pid, CancellationToken cancellation)
    {
        var freezer = new LinuxThreadFreezer(pid);
        try
        {
            freezer.StopAll(cancellation);
            return freezer;
        }
        catch
        {
            freezer.Dispose();
            throw;
        }
    }

    private void StopAll(CancellationToken cancellation)
    {
        _paused.Start();
        int firstError = 0;
        // A running thread may start new ones while the others are being stopped: repeat until a pass finds none.
        for (int pass = 0; pass < MaxPasses; pass++)
        {
            cancellation.ThrowIfCancellationRequested();
            var seized = new List<int>();
            foreach (int tid in ThreadIds())
            {
                if (_held.ContainsKey(tid))
                    continue;
                int error = LinuxPtrace.Call(LinuxPtrace.Seize, tid);
                if (error == 0)
                    error = LinuxPtrace.Call(LinuxPtrace.Interrupt, tid);
                if (error == 0)
                {
                    _held[tid] = NotStoppedYet;
                    seized.Add(tid);
                }
                else if (firstError == 0 && error != LinuxPtrace.ESRCH)
                {
                    firstError = error;
                }
            }
            if (seized.Count == 0)
                break;
            WaitUntilStopped(seized, cancellation, StopDeadline);
        }
        if (_held.Count == 0)
            throw new DiagExtException(firstError == LinuxPtrace.EPERM ? NotPermitted() : $"process {_pid}: no such process");
    }

    private void WaitUntilStopped(List<int> tids, CancellationToken cancellation, TimeSpan limit)
    {
        var deadline = Stopwatch.StartNew();
        var waiting = new HashSet<int>(tids);
        while (waiting.Count > 0)
        {
            foreach (int tid in waiting.ToArray())
            {
                switch (PollStop(tid, out int status))
                {
                    case LinuxPtrace.StopState.Stopped:
                        // A signal that arrived just before the interrupt stops the thread first: keep it to deliver on detach.
                        bool interrupt = status >> 8 == LinuxPtrace.EventStop;
                        _held[tid] = interrupt ? 0 : status & 0x7F;
                        waiting.Remove(tid);
                        break;
                    case LinuxPtrace.StopState.Gone:
                        _held.Remove(tid);
                        waiting.Remove(tid);
                        break;
                }
            }
            if (waiting.Count == 0)
                break;
            cancellation.ThrowIfCancellationRequested();
            if (deadline.Elapsed > limit)
                throw new DiagExtException($"process {_pid}: {waiting.Count} thread(s) did not stop within {limit.TotalSeconds:0} s (uninterruptible I/O?)", Remedy.UseSnapshot);
            Thread.Sleep(1);
        }
    }

    /// <summary>
    /// Whether a seized thread has reached its stop. The wait status says so, unless someone else consumed it:
    /// when the target is diagext's own child (as in tests), the .NET runtime's SIGCHLD handler reaps the
    /// leader's status with waitpid. /proc then still shows the thread in tracing stop ('t').
    /// </summary>
    private LinuxPtrace.StopState PollStop(int tid, out int status)
    {
        LinuxPtrace.StopState state = LinuxPtrace.PollStop(tid, out status);
        if (state == LinuxPtrace.StopState.Running && TaskState(tid) == 't')
        {
            status = LinuxPtrace.Sigtrap | (LinuxPtrace.EventStop << 8);
            return LinuxPtrace.StopState.Stopped;
        }
        return state;
    }

    private char TaskState(int tid)
    {
        try
        {
            string stat = File.ReadAllText($"/proc/{_pid}/task/{tid}/stat");
            return ProcStatus.StatFields(stat) is [{ Length: > 0 } state, ..] ? state[0] : '?';
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return '?';
        }
    }

    private IEnumerable<int> ThreadIds()
    {
        string[] tasks;
        try
        {
            tasks = Directory.GetDirectories($"/proc/{_pid}/task");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            yield break;
        }
        foreach (string dir in tasks)
            if (int.TryParse(Path.GetFileName(dir), out int tid))
                yield return tid;
    }

    private string NotPermitted() =>
        $"process {_pid}: not permitted to attach (ptrace: operation not permitted); {PtraceAdvice.For(_pid)}";

    public void Dispose()
    {
        if (_held.Count == 0)
            return;
        if (Environment.CurrentManagedThreadId != _ownerThread)
            throw new InvalidOperationException("a live target must be released on the thread that attached to it (ptrace binds a tracee to its tracing thread)");
        // Only a stopped tracee can be detached: give threads still on their way to the stop a moment to get there.
        List<int> late = _held.Where(h => h.Value == NotStoppedYet).Select(h => h.Key).ToList();
        if (late.Count > 0)
        {
            try
            {
                WaitUntilStopped(late, CancellationToken.None, TimeSpan.FromSeconds(1));
            }
            catch (DiagExtException)
            {
                // Those stay traced until diagext exits; the kernel then lets them go.
            }
        }
        foreach (var (tid, signal) in _held)
            if (signal != NotStoppedYet)
                LinuxPtrace.Call(LinuxPtrace.Detach, tid, signal); // ESRCH: the thread exited meanwhile
        _held.Clear();
        _paused.Stop();
    }
}
