namespace DiagExt.Core.Analysis;

/// <summary>
/// A test-only hook: DIAGEXT_TEST_FAIL_DETECTOR=NAME makes that detector throw where it starts, so the suite can
/// prove that one detector's failure leaves the rest of the report (in-process, through the isolation child, in a
/// batch and in the WinDbg extension, which all pass the environment on); "hang/SOURCE" (hang/SocketWaits) fails one of
/// hang's wait sources. Not an option: users never need it.
/// DIAGEXT_TEST_STALL_DETECTOR=NAME makes it wait where it starts until cancelled: an analysis as long as a big
/// dump's, for the test of Ctrl+Break in the debugger.
/// </summary>
internal static class FailureInjection
{
    public const string Variable = "DIAGEXT_TEST_FAIL_DETECTOR";

    public const string StallVariable = "DIAGEXT_TEST_STALL_DETECTOR";

    public static void StallIfAsked(string detector, CancellationToken cancellation)
    {
        if (Environment.GetEnvironmentVariable(StallVariable) is { Length: > 0 } named && named.Split(',').Contains(detector, StringComparer.Ordinal))
            cancellation.WaitHandle.WaitOne(TimeSpan.FromMinutes(10));
    }

    // Read at each run, not once: the suite sets it around one in-process analysis.
    public static void ThrowIfAsked(string detector)
    {
        if (Environment.GetEnvironmentVariable(Variable) is { Length: > 0 } named && named.Split(',').Contains(detector, StringComparer.Ordinal))
            throw new InvalidOperationException($"failure forced by {Variable} for a test");
    }
}
