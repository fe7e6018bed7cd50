// "Don't block on async code" inside a context nobody here wrote: Nito.AsyncEx.Context 5.1.2's AsyncContext.Run, the
// single-threaded context console programs and tests use to run async code. The "caller" thread runs
// AsyncContext.Run(() => LoadReportAsync().Wait()): LoadReportAsync awaits a Task.Delay with AsyncContext's
// SynchronizationContext current, so its continuation is posted to AsyncContext's queue, which only the caller thread
// (inside AsyncContext.Execute) takes from; and the caller is blocked in Wait(). Nothing else orders anything: it hangs
// every time. GROUND-TRUTH.md beside this file says what hang must report, written before diagext was run on it.

using Nito.AsyncEx;

var caller = new Thread(() => AsyncContext.Run(() =>
{
    Console.WriteLine($"thread caller managed {Environment.CurrentManagedThreadId} holds AsyncContext waits LoadReportAsync");
    Reports.LoadReportAsync().Wait();
})) { IsBackground = true, Name = "caller" };
caller.Start();
int steady = 0;
for (int i = 0; i < 600 && steady < 5; i++)
{
    Thread.Sleep(50);
    steady = (caller.ThreadState & ThreadState.WaitSleepJoin) != 0 ? steady + 1 : 0;
}
Thread.Sleep(300); // the 10 ms delay has fired: its continuation is in AsyncContext's queue
Console.WriteLine($"READY {Environment.ProcessId}");
Thread.Sleep(Timeout.Infinite);

static class Reports
{
    public static async Task<string> LoadReportAsync()
    {
        await Task.Delay(10);
        return "report";
    }
}
