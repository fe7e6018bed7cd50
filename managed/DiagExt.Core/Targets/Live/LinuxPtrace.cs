using System.Runtime.InteropServices;

namespace DiagExt.Core.Targets.Live;

/// <summary>The few libc calls <see cref="LinuxThreadFreezer"/> needs, with their Linux constants.</summary>
internal static class LinuxPtrace
{
    public const int Seize = 0x4206;
    public const int Interrupt = 0x4207;
    public const int Detach = 17;

    /// <summary>High byte of a stop's status: the stop PTRACE_INTERRUPT causes (not a signal).</summary>
    public const int EventStop = 128;

    public const int Sigtrap = 5;

    public const int EPERM = 1;
    public const int ESRCH = 3;
    public const int EINTR = 4;
    public const int ECHILD = 10;

    private const int PidType = 1;        // P_PID
    private const int WNOHANG = 1;
    private const int WSTOPPED = 2;
    private const int WEXITED = 4;
    private const int WNOWAIT = 0x01000000;
    private const int WALL = 0x40000000;  // __WALL: threads of another process are "clone" children
    private const int CLD_EXITED = 1;
    private const int CLD_KILLED = 2;
    private const int CLD_DUMPED = 3;
    private const int CLD_TRAPPED = 4;

    [DllImport("libc", EntryPoint = "ptrace", SetLastError = true)]
    private static extern nint PtraceCall(nint request, int pid, nint address, nint data);

    [DllImport("libc", EntryPoint = "waitid", SetLastError = true)]
    private static extern int WaitIdCall(int idType, int id, byte[] info, int options);

    /// <summary>Returns 0 or the errno of the failed call.</summary>
    public static int Call(int request, int tid, nint data = 0) =>
        PtraceCall(request, tid, 0, data) == -1 ? Marshal.GetLastPInvokeError() : 0;

    /// <summary>
    /// Polls (WNOHANG) whether <paramref name="tid"/> has stopped, without consuming the stop (WNOWAIT):
    /// a stop left unconsumed keeps its signal, so if diagext dies the kernel still delivers it.
    /// </summary>
    public static StopState PollStop(int tid, out int status)
    {
        status = 0;
        byte[] info = new byte[128]; // siginfo_t
        int result = WaitIdCall(PidType, tid, info, WSTOPPED | WEXITED | WNOHANG | WNOWAIT | WALL);
        if (result != 0)
            return Marshal.GetLastPInvokeError() == EINTR ? StopState.Running : StopState.Gone;
        int pid = BitConverter.ToInt32(info, 16);   // si_pid: 0 when nothing changed yet
        int code = BitConverter.ToInt32(info, 8);   // si_code: CLD_*
        status = BitConverter.ToInt32(info, 24);    // si_status: the stop's signal | event << 8
        if (pid == 0)
            return StopState.Running;
        return code switch
        {
            CLD_TRAPPED => StopState.Stopped,
            CLD_EXITED or CLD_KILLED or CLD_DUMPED => StopState.Gone,
            _ => StopState.Running,
        };
    }

    public enum StopState
    {
        Running,
        Stopped,
        Gone,
    }
}
