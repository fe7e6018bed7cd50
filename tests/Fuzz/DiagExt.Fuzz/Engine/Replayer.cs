namespace DiagExt.Fuzz.Engine;

/// <summary>
/// Runs saved inputs once each, in-process, each bounded in time on its own thread: how the test suite replays the
/// regression corpus. A hang leaves its thread behind (it cannot be stopped) and is reported as a failure.
/// </summary>
public static class Replayer
{
    public sealed record Replay(string Path, ExecResult? Result, Failure? Failure);

    public static Replay Run(IFuzzTarget target, string path, TimeSpan timeout)
    {
        byte[] input = InputFiles.Read(path);
        ExecResult? result = null;
        var thread = new Thread(() => result = Executor.Run(target, input), 64 * 1024 * 1024) { IsBackground = true, Name = $"replay {System.IO.Path.GetFileName(path)}" };
        thread.Start();
        if (!thread.Join(timeout))
            return new Replay(path, null, new Failure(FailureKind.Hang, $"hang: {target.Name}", $"still running after {timeout.TotalSeconds:0}s"));
        return new Replay(path, result, result!.Failure);
    }
}
