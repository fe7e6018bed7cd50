using DiagExt.Core;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// A ClrRuntime for tests that read a dump with ClrMD directly (ground truth beside diagext's answer), with the
/// DAC found as diagext finds it: ClrMD 4.2's CreateRuntime() no longer looks beside the dump's runtime.
/// </summary>
public static class DumpRuntime
{
    public static ClrRuntime Open(DataTarget dataTarget) =>
        TryOpen(dataTarget, out string? problem) ?? throw new InvalidOperationException($"no runtime for the test's ground truth: {problem}");

    /// <summary>The runtime, or null with diagext's own line saying why (no .NET, no DAC).</summary>
    public static ClrRuntime? TryOpen(DataTarget dataTarget, out string? problem)
    {
        (ClrRuntime? runtime, RuntimeStatus status) = RuntimeLoader.Load(dataTarget, new TargetOptions(), CancellationToken.None);
        problem = status.Problem;
        return runtime;
    }
}
