namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// Whether a child of this test run can be interrupted with SIGINT. A shell starting a command in the background
/// (`cmd &`) sets SIGINT and SIGQUIT to ignored, a child inherits that through exec, and .NET keeps a signal ignored at
/// start ignored (as a backgrounded program should): diagext then never sees the Ctrl+C a test sends. Seen here when
/// the suite was started with '&'; CI starts it in the foreground.
/// </summary>
public static class InterruptSignal
{
    public static void AssumeDeliverable()
    {
        string? mask = File.ReadLines("/proc/self/status").FirstOrDefault(l => l.StartsWith("SigIgn:", StringComparison.Ordinal));
        if (mask is not null && (Convert.ToUInt64(mask["SigIgn:".Length..].Trim(), 16) & (1UL << 1)) != 0)
            Assert.Ignore("SIGINT is ignored in this test run (started in the background), so a child would ignore the Ctrl+C sent to it");
    }
}
