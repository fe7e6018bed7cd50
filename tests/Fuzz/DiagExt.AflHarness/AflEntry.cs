using DiagExt.Fuzz.Engine;
using SharpFuzz;

namespace DiagExt.AflHarness;

/// <summary>
/// One target under afl-fuzz. Each execution goes through the structure-aware runner's <see cref="Executor"/>, so
/// AFL checks exactly its properties (documented rejections pass; an undocumented exception, a property violation or
/// an allocation over budget throws, which SharpFuzz reports as a crash). Hangs are afl-fuzz's -t.
/// The out-of-process fork server is used because a stack overflow or a native fault in the DAC (wcf) ends the
/// process: SharpFuzz then reports a crash and starts a new child instead of ending the campaign.
/// </summary>
public static class AflEntry
{
    public static void Run(IFuzzTarget target) =>
        Fuzzer.OutOfProcess.Run(stream =>
        {
            using var buffer = new MemoryStream();
            stream.CopyTo(buffer);
            ExecResult result = Executor.Run(target, buffer.ToArray());
            if (result.Failure is { } failure)
                throw new TargetFailure(failure);
        });

    /// <summary>A failure of the runner's properties, for SharpFuzz to see (and a human to read when run on one input).</summary>
    public sealed class TargetFailure(Failure failure) : Exception($"{failure.Signature}\n{failure.Detail}");
}
