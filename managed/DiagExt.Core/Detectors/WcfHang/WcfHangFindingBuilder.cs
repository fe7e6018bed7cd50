using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.WcfHang;

/// <summary>Turns one stuck call into a finding: verdict, evidence with links, proof, the waiting thread.</summary>
internal static class WcfHangFindingBuilder
{
    public static WcfHangFinding Build(StuckCall call, bool framework, int otherWaiters)
    {
        DuplexRequest request = call.Request;
        ChannelBinding? binding = call.Binding;
        TargetThread waiter = call.Waiter;
        IReadOnlyList<ManagedFrame> frames = waiter.Frames;
        ManagedFrame? user = call.UserFrame >= 0 ? frames[call.UserFrame] : null;
        string operation = call.OperationName ?? "a sync operation";
        string thread = $"0x{waiter.OsThreadId:x}";
        TimeSpan? timeout = binding?.OperationTimeout ?? binding?.SendTimeout;
        string expiry = timeout is { } t
            ? $"until its timeout ({DurationText.Setting(t)}) expires and it throws TimeoutException"
            : "until its operation timeout expires and it throws TimeoutException";

        bool selfDeadlock = call.Verdict == StuckCallVerdict.SelfDeadlock;
        string title = selfDeadlock
            ? $"WCF call {operation} deadlocked on its own channel's receive thread {thread}"
            : $"WCF call {operation} waits for its reply on thread {thread}";
        string summary = selfDeadlock
            ? $"Thread {thread} called {operation} synchronously{(user is null ? "" : $" from {user.ShortName}")} while it was delivering the reply to an earlier call on the same channel (it is the channel's receive pump). " +
              $"Only that thread would read {operation}'s reply, so it waits {expiry}; the reply, if the server sent it, sits unread."
            : $"Thread {thread} waits in WaitForReply for {operation}'s reply and is not the thread that reads replies on its channel: " +
              $"{WcfHangAdvice.WhyNoReply(call, otherWaiters)}";

        var proof = new List<string>();
        var evidence = new List<Markup>();
        evidence.Add(Markup.Line().Text("request: SyncDuplexRequest ").Object(request.Address)
            .Text($" has no reply{(request.WaitCount is int w ? $" (waitCount {w})" : "")}")
            .Text(request.MessageId is null ? "" : $", MessageId {request.MessageId}")
            .Text(call.Operation?.Action is { } action ? $", Action {action}" : ""));
        if (binding is not null)
            evidence.Add(ChannelLine(binding));
        evidence.Add(Markup.Line().Text("waiter: thread ").Thread(waiter.OsThreadId)
            .Text($" waits in SyncDuplexRequest.WaitForReply (frame {call.WaitFrame}) and its stack holds the request"));
        proof.Add($"thread {thread}: frame {call.WaitFrame} is SyncDuplexRequest.WaitForReply; its registers or stack hold the request {(Address)request.Address}");
        if (call.PumpFrames.Count > 0)
        {
            string pump = string.Join(" <- ", call.PumpFrames.Select(f => f.ShortName));
            evidence.Add(Markup.Text($"pump: further out on the same stack: {pump}"));
            proof.Add($"the same stack runs the receive pump: {pump}");
        }
        if (call.Delivering is { } delivering)
        {
            evidence.Add(Markup.Line().Text("delivering: AsyncDuplexRequest ").Object(delivering.Address)
                .Text($" of the same binder is on its stack{(delivering.GotReply == true ? " with its reply received (_gotReply true)" : "")}: the earlier call whose completion made this call"));
            proof.Add($"its stack holds AsyncDuplexRequest {(Address)delivering.Address} of the same binder{(delivering.GotReply == true ? " (_gotReply true)" : "")}");
        }
        if (call.WaiterHoldsHandler && binding is not null)
            proof.Add($"its stack holds the binder's ChannelHandler {(Address)binding.Handler}, which points back at the binder");
        if (binding?.IsPumpAcquired is int acquired)
            proof.Add($"ChannelHandler._isPumpAcquired is {acquired}");
        if (call.OtherPumps.Count > 0)
        {
            var line = Markup.Line().Text("other pumps of this channel: ");
            foreach (TargetThread other in call.OtherPumps)
                line.Thread(other.OsThreadId).Text(" ");
            evidence.Add(line);
            proof.Add($"other threads pump this channel: {string.Join(", ", call.OtherPumps.Select(o => $"0x{o.OsThreadId:x}"))}");
        }
        else if (binding is not null)
        {
            evidence.Add(Markup.Text(selfDeadlock ? "no other thread pumps this channel" : "no thread is pumping this channel now"));
            proof.Add("no other thread's stack runs this channel's pump");
        }
        if (user is not null)
            evidence.Add(Markup.Text($"call made by: {user.Display}"));
        evidence.Add(Markup.Text(WcfHangAdvice.Waited(timeout)));
        ThreadCpuTime? cpu = waiter.Cpu;
        var threads = new List<ThreadRef>
        {
            new()
            {
                OsThreadId = waiter.OsThreadId,
                ManagedThreadId = waiter.ManagedThreadId,
                Role = selfDeadlock ? $"waits for {operation}'s reply on its own channel's receive pump" : $"waits for {operation}'s reply",
                Frame = frames[call.WaitFrame].ShortName,
                CallerFrame = user?.ShortName,
                Stack = waiter.StackText(),
                UserCpu = cpu?.User,
                KernelCpu = cpu?.Kernel,
                RecentCpuShare = cpu?.RecentShare,
            },
        };
        threads.AddRange(call.OtherPumps.Select(p => new ThreadRef
        {
            OsThreadId = p.OsThreadId,
            ManagedThreadId = p.ManagedThreadId,
            Role = "pumps this channel",
            Frame = p.Frames.FirstOrDefault(WcfFrames.IsHandlerPump)?.ShortName,
        }));

        return new WcfHangFinding
        {
            Kind = selfDeadlock ? WcfHangDetector.SelfDeadlock : WcfHangDetector.WaitingForReply,
            Title = title,
            Summary = summary,
            Threads = threads,
            Evidence = evidence,
            Advice = selfDeadlock ? WcfHangAdvice.ForSelfDeadlock(framework) : WcfHangAdvice.ForWaiting(),
            Operation = call.OperationName,
            Action = call.Operation?.Action,
            MessageId = request.MessageId,
            RequestAddress = request.Address,
            BinderAddress = binding is null ? null : binding.Binder,
            ChannelHandlerAddress = binding is { Handler: not 0 } ? binding.Handler : null,
            ChannelAddress = binding is { Channel: not 0 } ? binding.Channel : null,
            ChannelType = binding?.ChannelType,
            RemoteAddress = binding?.RemoteAddress,
            Via = binding?.Via,
            PumpAcquired = binding?.IsPumpAcquired,
            Timeout = timeout,
            CallerFrame = user?.Display,
            Proof = proof,
        };
    }

    private static Markup ChannelLine(ChannelBinding binding)
    {
        MarkupBuilder line = Markup.Line().Text("channel: DuplexChannelBinder ").Object(binding.Binder);
        if (binding.Handler == 0)
            line.Text(", no ChannelHandler");
        else
        {
            line.Text(", ChannelHandler ").Object(binding.Handler);
            if (binding.IsPumpAcquired is int p)
                line.Text($" (_isPumpAcquired {p}{(p == 1 ? ": a thread is pumping" : ": nobody pumps")})");
            if (!binding.HandlerPointsBack)
                line.Text(" (it does not point back at this binder)");
        }
        if (binding.Channel != 0)
            line.Text($", {TypeNames.Short(binding.ChannelType ?? "channel")} ").Object(binding.Channel);
        if (binding.RemoteAddress is { } remote)
            line.Text($" to {remote}");
        if (binding.Via is { } via && via != binding.RemoteAddress)
            line.Text($" via {via}");
        return line;
    }
}
