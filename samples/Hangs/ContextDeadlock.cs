using System.Collections.Concurrent;

namespace Hangs;

/// <summary>
/// "Don't block on async code": a thread that pumps a single-threaded SynchronizationContext of our own (Post queues to
/// a BlockingCollection only that thread takes from, as a UI thread's message loop does) blocks in .Result on an async
/// method whose continuation was captured for that context: it can run only on the blocked thread.
/// </summary>
internal static class ContextDeadlock
{
    /// <summary>
    /// "ui" blocks on LoadAsync, whose Task.Delay(10) has completed and whose continuation sits posted in ui's queue;
    /// "ui2" blocks on SlowLoadAsync, whose Task.Delay(10 min) still holds the continuation bound for ui2's context.
    /// </summary>
    public static void Run()
    {
        Thread ui = PumpThread("ui", () =>
        {
            Blocked.Say("ui", "OneThreadContext", "LoadAsync");
            Console.WriteLine(LoadAsync().Result);
        });
        Thread ui2 = PumpThread("ui2", () =>
        {
            Blocked.Say("ui2", "OneThreadContext", "SlowLoadAsync");
            Console.WriteLine(SlowLoadAsync().Result);
        });
        Blocked.WaitFor(ui, ui2);
        Thread.Sleep(300); // the 10 ms delay has fired: its continuation is posted to ui's queue
    }

    /// <summary>
    /// The same shape done right: "worker" pumps its own context and blocks on a method that awaits with
    /// ConfigureAwait(false) (its continuation runs on the pool, whatever the context); "pumper" blocks in .Result on such a
    /// method that completes, then goes back to waiting for posts. Nothing is deadlocked.
    /// </summary>
    public static void Healthy()
    {
        Thread worker = PumpThread("worker", () =>
        {
            Blocked.Say("worker", "OneThreadContext", "FreeLoadAsync");
            Console.WriteLine(FreeLoadAsync(TimeSpan.FromMinutes(10)).Result);
        });
        Thread pumper = PumpThread("pumper", () =>
        {
            Console.WriteLine(FreeLoadAsync(TimeSpan.FromMilliseconds(10)).Result);
            Blocked.Say("pumper", "OneThreadContext", "posts");
        });
        Blocked.WaitFor(worker, pumper);
        Thread.Sleep(300);
    }

    private static async Task<string> LoadAsync()
    {
        await Task.Delay(10);
        return "loaded";
    }

    private static async Task<string> SlowLoadAsync()
    {
        await Task.Delay(TimeSpan.FromMinutes(10));
        return "loaded slowly";
    }

    private static async Task<string> FreeLoadAsync(TimeSpan delay)
    {
        await Task.Delay(delay).ConfigureAwait(false);
        return "loaded off the context";
    }

    /// <summary>A thread that installs its own OneThreadContext, runs <paramref name="first"/> on it, then pumps its posts.</summary>
    private static Thread PumpThread(string name, Action first) => Blocked.Start(name, () =>
    {
        var context = new OneThreadContext();
        SynchronizationContext.SetSynchronizationContext(context);
        context.Post(_ => first(), null);
        context.Pump();
    });

    /// <summary>A single-threaded context: Post queues, and only the thread in Pump runs what was queued.</summary>
    private sealed class OneThreadContext : SynchronizationContext
    {
        private readonly BlockingCollection<(SendOrPostCallback Callback, object? State)> _queue = new();

        public override void Post(SendOrPostCallback d, object? state) => _queue.Add((d, state));

        public override void Send(SendOrPostCallback d, object? state) => throw new NotSupportedException("Send is not used here");

        public void Pump()
        {
            foreach ((SendOrPostCallback callback, object? state) in _queue.GetConsumingEnumerable())
                callback(state);
        }
    }
}
