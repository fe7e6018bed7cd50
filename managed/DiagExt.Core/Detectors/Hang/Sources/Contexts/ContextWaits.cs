using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// "Don't block on async code": a thread blocked on a task (.Result, .Wait(), GetResult()) whose async method must resume
/// on a SynchronizationContext (or TaskScheduler) that only one thread runs. The chain (<see cref="ContextChain"/>)
/// names the context the continuation captured, or, when the awaited task completed already, the context whose own
/// queue holds the posted continuation (<see cref="ContextQueue"/>); the thread that runs it is read from the threads'
/// own contexts (<see cref="ContextThreads"/>). The wait's end becomes <see cref="WaitEnd.Context"/> with that thread as
/// its blocker: the waiter itself (a self-edge, which the cycle search skips; <see cref="ContextDeadlocks"/> reports it)
/// or another thread, an edge like any other. Runs after <see cref="ObjectWaitChains"/>, whose ends it refines.
/// </summary>
internal sealed class ContextWaits : IWaitSource
{
    public void AddTo(WaitGraph graph, HangScene scene)
    {
        ContextThreads? owners = null;
        foreach ((uint os, ThreadWait wait) in graph.Waits.OrderBy(w => w.Key).ToList())
        {
            scene.Cancellation.ThrowIfCancellationRequested();
            if (wait.Site.Kind != WaitKind.Task || wait.Target.IsNull || graph.ObjectWaitOf(os) is not { } followed || followed.End is WaitEnd.Thread or WaitEnd.Cut)
                continue;
            if (ContextChain.Find(wait.Target) is not { } link)
                continue;
            owners ??= new ContextThreads(scene.Target);
            if (Resolve(scene.Target, owners, os, link) is { } context)
                graph.AddObjectWait(os, followed with
                {
                    End = WaitEnd.Context,
                    EndObject = context.Context,
                    EndText = EndText(context, scene.Threads),
                    Blocker = context.Thread,
                    Context = context,
                });
        }
    }

    /// <summary>The context and its one thread; null when no thread, or more than one, runs it (a pool-like context is not this hang).</summary>
    private static ContextWait? Resolve(Target target, ContextThreads owners, uint waiter, ContextChain.Link link)
    {
        ClrHeap heap = target.Runtime!.Heap;
        ulong box = link.Method.Box;
        if (!link.Context.IsNull)
        {
            IReadOnlyList<TargetThread> running = owners.Running(link.Context.Address, link.IsScheduler);
            string type = link.Context.Type?.Name ?? "?";
            if (running.Count != 1 || HangNames.ForwardingContexts.Contains(type))
                return null;
            return Describe(new ContextWait(link.Method, link.Awaited.Address, false, link.Context.Address, type, link.IsScheduler, running[0].OsThreadId), running[0], link.Awaited);
        }
        // The awaited task completed: a continuation that captured a context was posted to it; find the context holding it.
        foreach (ulong context in owners.ContextsFrom(waiter))
        {
            IReadOnlyList<TargetThread> running = owners.Running(context, scheduler: false);
            string type = ObjectTypes.Of(heap, context)?.Name ?? "?";
            if (running.Count != 1 || HangNames.ForwardingContexts.Contains(type))
                continue;
            if (ContextQueue.PathTo(heap, context, box) is { } path)
                return Describe(new ContextWait(link.Method, link.Awaited.Address, true, context, type, false, running[0].OsThreadId) { QueuePath = path }, running[0], link.Awaited);
        }
        return null;
    }

    private static ContextWait Describe(ContextWait context, TargetThread thread, ClrObject awaited) => context with
    {
        AwaitedType = awaited.IsNull ? null : TypeNames.Short(awaited.Type?.Name ?? "Task"),
        Known = HangNames.SingleThreadContexts.GetValueOrDefault(context.ContextType),
        LoopFrame = LoopFrame(thread, context.ContextType),
    };

    /// <summary>
    /// A frame of the context's own code on its thread outside the threading plumbing: its message loop (our sample's
    /// Pump, AsyncContext.Execute). A nested context type ("AsyncContext+AsyncContextSynchronizationContext") counts its
    /// declaring type's frames too.
    /// </summary>
    private static string? LoopFrame(TargetThread thread, string contextType)
    {
        int plus = contextType.LastIndexOf('+');
        string? outer = plus > 0 ? contextType[..plus] : null;
        return thread.Frames.FirstOrDefault(f => f.TypeName is { } t && (t == contextType || t == outer))?.ShortName;
    }

    private static string EndText(ContextWait context, ThreadIndex threads)
    {
        string thread = threads.ByOsId(context.Thread) is { } t ? ThreadRefs.Name(t) : $"0x{context.Thread:x}";
        string resumes = $"{context.Method.Method} resumes after await {context.Method.State?.ToString() ?? "?"} only on {context.ContextName} 0x{context.Context:x}, which thread {thread} runs";
        return context.Posted ? $"{resumes} (its continuation is already posted there)" : resumes;
    }
}
