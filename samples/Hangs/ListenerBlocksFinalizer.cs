using System.Diagnostics.Tracing;
using System.Runtime.CompilerServices;

namespace Hangs;

/// <summary>
/// A real library's finalizer blocked: the runtime's own EventSource. <c>EventListener.EventSourceCreated +=</c> calls
/// the handler for every existing EventSource while holding the runtime's EventListenersLock
/// (<c>EventListener.CallBackForExistingEventSources</c>); an undisposed EventSource's provider, when finalized, takes
/// that lock (<c>EventProvider.Dispose(false)</c>). A handler that waits (here for a configuration that never arrives)
/// keeps the lock, and the finalizer blocks on the first dropped EventSource it reaches; the rest queue behind it.
/// Nothing here is the runtime's code: the sample only uses its public API the way an app would.
/// </summary>
internal static class ListenerBlocksFinalizer
{
    /// <summary>Completed when the app's configuration has loaded: never, here.</summary>
    public static readonly TaskCompletionSource Configured = new();

    public const int Sources = 200;

    [EventSource(Name = "Hangs-Demo")]
    private sealed class DemoSource(string name) : EventSource(name)
    {
    }

    /// <summary>An app's listener: it enables nothing until configured.</summary>
    private sealed class AppListener : EventListener
    {
    }

    private static Thread? s_finalizer;

    private sealed class Probe
    {
        ~Probe() => Volatile.Write(ref s_finalizer, Thread.CurrentThread);
    }

    public static void Run()
    {
        // Which thread is the finalizer: a probe finalized while it is still free.
        DropProbe();
        GC.Collect();
        GC.WaitForPendingFinalizers();
        Thread finalizer = Volatile.Read(ref s_finalizer) ?? throw new InvalidOperationException("the probe was not finalized");
        Console.WriteLine($"thread finalizer managed {finalizer.ManagedThreadId} holds nothing waits EventListenersLock");

        var sources = CreateSources(Sources);
        Thread listener = Blocked.Start("listener", () =>
        {
            var l = new AppListener();
            Blocked.Say("listener", "EventListenersLock", "Configured");
            // The handler runs for each existing EventSource under EventListenersLock; it waits for configuration first.
            l.EventSourceCreated += (_, _) => Configured.Task.Wait();
        });
        Blocked.WaitFor(listener);
        sources.Clear();
        GC.Collect();
        Blocked.WaitFor(finalizer);
        Console.WriteLine($"finalizable Hangs.ListenerBlocksFinalizer+DemoSource {Sources}");
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void DropProbe() => _ = new Probe();

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static List<EventSource> CreateSources(int count)
    {
        var list = new List<EventSource>(count);
        for (int i = 0; i < count; i++)
            list.Add(new DemoSource($"Hangs-Demo-{i}"));
        return list;
    }
}
