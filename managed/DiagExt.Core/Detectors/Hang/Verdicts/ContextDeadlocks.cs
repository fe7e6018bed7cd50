using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// A thread blocked on a task whose async method resumes only on a context that thread itself runs
/// (<see cref="ContextWaits"/>): it waits for itself, a cycle of one that the cycle search leaves out (a self-edge).
/// A hazard when it is proven that only that thread can run the continuation (<see cref="ContextWait.Proven"/>), a
/// warning otherwise. When the context's thread is another one, the wait is an edge of the graph and a cycle through
/// it is a <see cref="HangDetector.Deadlock"/> whose step names the context.
/// </summary>
internal sealed class ContextDeadlocks : IHangVerdict
{
    public bool InWatch => true;

    public IEnumerable<HangFinding> Find(WaitGraph graph, HangScene scene)
    {
        foreach ((uint os, ObjectWait wait) in graph.ObjectWaits.OrderBy(w => w.Key))
            if (wait is { End: WaitEnd.Context, Context: { } context } && context.Thread == os
                && scene.Threads.ByOsId(os) is { } thread && graph.WaitOf(os) is { } at)
                yield return Build(thread, at, wait, context);
    }

    private static HangFinding Build(TargetThread thread, ThreadWait at, ObjectWait wait, ContextWait context)
    {
        string name = ThreadRefs.Name(thread);
        string call = $"{WaitWord(at)}{(at.FirstUserCode is { } user ? $" in {user.ShortName}" : "")}";
        string method = context.Method.Method;
        string awaitNo = context.Method.State?.ToString() ?? "?";
        var evidence = new List<Markup>
        {
            ObjectWaitLines.Append(Markup.Line().Text("thread ").Thread(thread.OsThreadId).Text($" blocks in {call}: "), wait),
        };
        MarkupBuilder captured = Markup.Line().Text($"{method} (state machine ").Object(context.Method.Box).Text($") is suspended at await {awaitNo}; ");
        if (context.Posted)
        {
            captured.Text("the task it awaits there ");
            if (context.Awaited != 0)
                captured.Text($"({context.AwaitedType}) ").Object(context.Awaited).Text(" ");
            captured.Text($"has completed and its continuation was posted to {context.ContextName} ").Object(context.Context)
                .Text($", whose own objects hold it, queued: {context.QueuePath}");
        }
        else
            captured.Text($"its continuation waits on {context.AwaitedType} ").Object(context.Awaited).Text($" for {context.ContextName} ").Object(context.Context)
                .Text($" ({(context.IsScheduler ? "TaskSchedulerAwaitTaskContinuation" : "SynchronizationContextAwaitTaskContinuation")}): it will be posted there, not run where the task completes");
        evidence.Add(captured);
        MarkupBuilder owner = Markup.Line().Text($"{context.ContextName} ").Object(context.Context)
            .Text($" is the {(context.IsScheduler ? "scheduler of the task running on" : "current SynchronizationContext of")} thread ").Thread(thread.OsThreadId)
            .Text(" and of no other thread");
        if (context.LoopFrame is { } loop)
            owner.Text($"; that thread runs its loop ({loop}) below the blocking call");
        evidence.Add(owner);
        if (context.Known is { } known)
            evidence.Add(Markup.Text($"{context.ContextName} is {known}: its posts run on that one thread"));
        if (!context.Proven)
            evidence.Add(Markup.Text($"not proven: {context.ContextName} is a type hang does not know, the continuation is not posted yet and the thread shows no loop of it; if its Post hands work to another thread, this wait ends when the awaited task does"));
        return new HangFinding
        {
            Kind = HangDetector.ContextDeadlock,
            Title = $"SynchronizationContext deadlock: thread 0x{thread.OsThreadId:x} blocks in {call} on {method}, which must resume on that thread's {context.ContextName}",
            Summary = $"{method} resumes after await {awaitNo} on {context.ContextName} 0x{context.Context:x}, which only thread {name} runs, " +
                      $"and that thread is blocked in {call} waiting for it: the continuation can never run, so the task never completes.",
            Level = context.Proven ? null : FindingSeverity.Warning,
            Threads = [ThreadRefs.For(thread, $"blocked on its own context: {ObjectWaitLines.Role(wait)}", at)],
            Evidence = evidence,
            Advice = HangAdvice.ContextDeadlock,
        };
    }

    private static string WaitWord(ThreadWait wait) => wait.WaitFrame.MethodName switch
    {
        "GetResultCore" or "get_Result" => ".Result",
        "GetResult" => "GetAwaiter().GetResult()",
        "Wait" or "InternalWait" or "InternalWaitCore" or "SpinThenBlockingWait" => ".Wait()",
        _ => wait.WaitFrame.ShortName,
    };
}
