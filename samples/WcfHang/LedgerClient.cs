using System.Diagnostics;
using System.ServiceModel;

enum ClientMode { Apm, FromAsync, Seed, Fixed }

/// <summary>When Commit was called, and on which managed thread.</summary>
readonly record struct CommitCall(long Timestamp, int ManagedThreadId)
{
    public static CommitCall Now() => new(Stopwatch.GetTimestamp(), Environment.CurrentManagedThreadId);
}

/// <summary>
/// The client role: Prepare in the mode's shape, then the sync Commit. The main thread is a watchdog: once Commit
/// has waited a second it reports the hang (or the completion) and prints "READY &lt;pid&gt;" for the tests to dump.
/// </summary>
static class LedgerClient
{
    // The defaults (1 min) would end the hang before a test dumps it.
    static readonly TimeSpan LongTimeout = TimeSpan.FromMinutes(30);
    static readonly TimeSpan HangThreshold = TimeSpan.FromSeconds(1);
    const int Id = 42;

    /// <summary>Returns only on an error; otherwise stays alive until killed.</summary>
    public static int Run(int port, ClientMode mode)
    {
        var binding = new NetTcpBinding(SecurityMode.None)
        {
            OpenTimeout = LongTimeout,
            SendTimeout = LongTimeout,
            ReceiveTimeout = LongTimeout,
        };
        var factory = new ChannelFactory<ILedger>(binding, new EndpointAddress($"net.tcp://127.0.0.1:{port}/ledger"));
        ILedger proxy = factory.CreateChannel();
        var channel = (IContextChannel)proxy;
        channel.OperationTimeout = LongTimeout;
        channel.Open();

        // Completed just before Commit is called, with when and on which thread (the tests' ground truth).
        var commitEntered = new TaskCompletionSource<CommitCall>(TaskCreationOptions.RunContinuationsAsynchronously);
        Task<bool> work = mode switch
        {
            ClientMode.Apm => CommitInApmCallback(proxy, commitEntered),
            ClientMode.FromAsync => CommitAfterFromAsync(proxy, commitEntered),
            ClientMode.Seed => CommitAfterTaskOperation(proxy, commitEntered),
            _ => CommitOffTheReceiveThread(proxy, commitEntered),
        };

        Task.WaitAny(work, commitEntered.Task);
        if (Task.WaitAny([work], HangThreshold) < 0)
        {
            CommitCall call = commitEntered.Task.Result;
            double waited = Stopwatch.GetElapsedTime(call.Timestamp).TotalSeconds;
            Console.WriteLine($"hung: Commit waiting on the receive thread (managed thread {call.ManagedThreadId}) since {waited:F1} s");
        }
        else
        {
            bool prepared = work.GetAwaiter().GetResult(); // rethrows a failed call
            Console.WriteLine($"completed: Prepare={prepared}, Commit done");
        }
        Console.WriteLine($"READY {Environment.ProcessId}");
        Console.Out.Flush();

        // The channel stays open: a dump still holds the binder and its requests, pending or completed.
        Thread.Sleep(Timeout.Infinite);
        GC.KeepAlive(factory);
        return 0;
    }

    /// <summary>The AsyncCallback runs on the thread that read Prepare's reply: Commit blocks that thread. Hangs.</summary>
    static Task<bool> CommitInApmCallback(ILedger proxy, TaskCompletionSource<CommitCall> commitEntered)
    {
        var done = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        proxy.BeginPrepare(Id, result =>
        {
            try
            {
                bool prepared = proxy.EndPrepare(result);
                commitEntered.SetResult(CommitCall.Now());
                proxy.Commit(Id);
                done.SetResult(prepared);
            }
            catch (Exception e)
            {
                done.SetException(e);
            }
        }, null);
        return done.Task;
    }

    /// <summary>FromAsync completes its task, and so runs this continuation, inside the APM callback. Hangs.</summary>
    static async Task<bool> CommitAfterFromAsync(ILedger proxy, TaskCompletionSource<CommitCall> commitEntered)
    {
        bool prepared = await Task.Factory.FromAsync(proxy.BeginPrepare, proxy.EndPrepare, Id, null);
        commitEntered.SetResult(CommitCall.Now());
        proxy.Commit(Id);
        return prepared;
    }

    /// <summary>The seed's form. dotnet/wcf completes Task operations off the receive thread since 6.0: completes.</summary>
    static async Task<bool> CommitAfterTaskOperation(ILedger proxy, TaskCompletionSource<CommitCall> commitEntered)
    {
        bool prepared = await proxy.PrepareAsync(Id);
        commitEntered.SetResult(CommitCall.Now());
        proxy.Commit(Id);
        return prepared;
    }

    /// <summary>The FromAsync form with the sync call moved to another thread, freeing the receive thread: completes.</summary>
    static async Task<bool> CommitOffTheReceiveThread(ILedger proxy, TaskCompletionSource<CommitCall> commitEntered)
    {
        bool prepared = await Task.Factory.FromAsync(proxy.BeginPrepare, proxy.EndPrepare, Id, null);
        commitEntered.SetResult(CommitCall.Now());
        await Task.Run(() => proxy.Commit(Id));
        return prepared;
    }
}
