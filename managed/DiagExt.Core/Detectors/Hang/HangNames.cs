namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// The runtime's own names that hang reads, one place per runtime family. .NET (Core) names were read in .NET 10.0.12
/// dumps (dotnet-dump 10.0.750501) and dotnet/runtime; .NET Framework names are from referencesource and untested here
/// (no Framework dump can be made on this machine). Where the families differ both are listed and tried in order.
/// </summary>
internal static class HangNames
{
    public const string Monitor = "System.Threading.Monitor";
    public const string Lock = "System.Threading.Lock";
    public const string ReaderWriterLockSlim = "System.Threading.ReaderWriterLockSlim";
    public const string ReaderWriterCount = "System.Threading.ReaderWriterCount";
    public const string SemaphoreSlim = "System.Threading.SemaphoreSlim";
    public const string TaskNode = "System.Threading.SemaphoreSlim+TaskNode";
    public const string Task = "System.Threading.Tasks.Task";
    public const string Thread = "System.Threading.Thread";
    public const string ManualResetEventSlim = "System.Threading.ManualResetEventSlim";
    public const string WaitHandle = "System.Threading.WaitHandle";
    public const string ThreadPool = "System.Threading.ThreadPool";
    public const string WorkStealingQueueList = "System.Threading.ThreadPoolWorkQueue+WorkStealingQueueList";

    // Lock (.NET 9+ only): the owner is an OS thread id, 0 when free.
    public const string LockOwner = "_owningThreadId";
    public const string LockRecursion = "_recursionCount";

    // ReaderWriterLockSlim: managed thread ids, -1 when free. Framework: no underscore.
    public static readonly string[] WriteOwner = ["_writeLockOwnerId", "writeLockOwnerId"];
    public static readonly string[] UpgradeOwner = ["_upgradeLockOwnerId", "upgradeLockOwnerId"];
    public static readonly string[] LockId = ["_lockID", "lockID"];
    public static readonly string[] Owners = ["_owners", "owners"];
    /// <summary>[ThreadStatic] ReaderWriterCount list of the thread's read/upgrade/write counts per lock (both families).</summary>
    public const string ReaderCounts = "t_rwc";
    public const string CountLockId = "lockID";
    public const string CountReaders = "readercount";
    public const string CountNext = "next";

    // SemaphoreSlim (both families).
    public const string CurrentCount = "m_currentCount";
    public const string MaxCount = "m_maxCount";
    public const string WaitCount = "m_waitCount";
    public const string AsyncHead = "m_asyncHead";
    public const string NodeNext = "Next";

    // Task (both families).
    public const string ContinuationObject = "m_continuationObject";
    public const string StateFlags = "m_stateFlags";
    public const string StateMachine = "StateMachine";

    // Task chains (issue 27 source 5). An awaiter field of a state machine ("<>u__1": TaskAwaiter, TaskAwaiter<T>,
    // ConfiguredTaskAwaitable.ConfiguredTaskAwaiter) holds the awaited task in m_task (both families).
    public const string AwaiterFieldPrefix = "<>u__";
    public const string AwaiterTask = "m_task";
    public const string TaskAction = "m_action";
    /// <summary>Task.Delay's task: a timer completes it (.NET: Task+DelayPromise, Task+DelayPromiseWithCancellation; Framework: Task+DelayPromise).</summary>
    public const string DelayPromise = "System.Threading.Tasks.Task+DelayPromise";
    public const string TaskCompletionSource = "System.Threading.Tasks.TaskCompletionSource";
    /// <summary>The TaskCompletionSource's task: .NET _task, Framework m_task.</summary>
    public static readonly string[] PromiseTask = ["_task", "m_task"];

    // SynchronizationContext deadlocks (issue 40). An await that captured a context leaves on the awaited task a
    // SynchronizationContextAwaitTaskContinuation (m_syncContext) or, for a non-default TaskScheduler, a
    // TaskSchedulerAwaitTaskContinuation (m_scheduler); both keep the async method's MoveNext delegate in m_action
    // (dotnet/runtime TaskContinuation.cs; the same names in referencesource). A thread's context is its Thread object's
    // _synchronizationContext, reached through the [ThreadStatic] t_currentThread (.NET; Framework keeps it in the
    // thread's ExecutionContext and has no such static: not read); the scheduler a thread runs is that of Task.t_currentTask.
    public const string SyncContextContinuation = "System.Threading.Tasks.SynchronizationContextAwaitTaskContinuation";
    public const string SchedulerContinuation = "System.Threading.Tasks.TaskSchedulerAwaitTaskContinuation";
    public const string ContinuationContext = "m_syncContext";
    public const string ContinuationScheduler = "m_scheduler";
    public const string SynchronizationContext = "System.Threading.SynchronizationContext";
    public const string CurrentThread = "t_currentThread";
    public const string ThreadContext = "_synchronizationContext";
    public const string CurrentTask = "t_currentTask";
    public const string TaskScheduler = "m_taskScheduler";
    public const string DelegateTarget = "_target";
    public const string ContinuationList = "System.Collections.Generic.List<System.Object>";
    public const string ListItems = "_items";
    public const string ListSize = "_size";

    /// <summary>
    /// Contexts whose posts run on one thread only, by type name, with what that thread is. From their public sources:
    /// dotnet/winforms, dotnet/wpf, microsoft/referencesource System.Web, StephenCleary/AsyncEx; only AsyncEx's is tested here.
    /// </summary>
    public static readonly IReadOnlyDictionary<string, string> SingleThreadContexts = new Dictionary<string, string>
    {
        ["System.Windows.Forms.WindowsFormsSynchronizationContext"] = "the WinForms UI thread's message loop",
        ["System.Windows.Threading.DispatcherSynchronizationContext"] = "the WPF Dispatcher's thread",
        ["System.Web.AspNetSynchronizationContext"] = "the ASP.NET (classic) request, one thread at a time",
        ["System.Web.LegacyAspNetSynchronizationContext"] = "the ASP.NET (classic) request, one thread at a time",
        ["Nito.AsyncEx.AsyncContext+AsyncContextSynchronizationContext"] = "Nito.AsyncEx's AsyncContext, run by the thread in AsyncContext.Run",
    };

    /// <summary>
    /// xunit's contexts do not pin a continuation to one thread: AsyncTestSyncContext forwards posts to the context it
    /// wraps (or the pool), MaxConcurrencySyncContext runs them on its own worker threads (xunit 2: Xunit.Sdk, xunit v3:
    /// Xunit.v3). A wait under them is not reported: where AsyncTestSyncContext wraps a single-thread context, this misses it.
    /// </summary>
    public static readonly IReadOnlySet<string> ForwardingContexts = new HashSet<string> { "Xunit.Sdk.AsyncTestSyncContext", "Xunit.Sdk.MaxConcurrencySyncContext", "Xunit.v3.MaxConcurrencySyncContext" };

    // ManualResetEventSlim (both families): m_combinedState = set bit 31, spin count bits 19-29, waiters bits 0-18.
    public const string ResetEventState = "m_combinedState";

    // Thread: the managed id of the thread a Join waits for.
    public static readonly string[] ManagedThreadId = ["_managedThreadId", "m_ManagedThreadId"];

    // Thread pool (.NET 6+ managed pool; Framework's is native and ClrMD's ClrThreadPool is all there is).
    public static readonly string[] WorkQueue = ["s_workQueue"];
    public static readonly string[] GlobalQueues = ["workItems", "highPriorityWorkItems", "lowPriorityWorkItems"];
    public const string AssignableQueues = "_assignableWorkItemQueues";
    public const string LocalQueues = "_queues";
    public const string LocalQueueArray = "m_array";
    public const string QueueHead = "_head";
    public const string SegmentSlots = "_slots";
    public const string SegmentNext = "_nextSegment";
    public const string SlotItem = "Item";
    public const string WorkerStart = "System.Threading.PortableThreadPool+WorkerThread";

    // Remote waits (issue 40 part 3; .NET 10.0.12 dumps and dotnet/runtime's System.Net.Sockets, System.Net.Primitives,
    // System.Net.Http). A socket's peer: Socket._remoteEndPoint (set once connected; _rightEndPoint is the endpoint it
    // was asked to reach); an IPEndPoint's _address and _port; an IPAddress's _numbers (eight 16-bit groups, IPv6) or,
    // when that is null, _addressOrScopeId (IPv4, the first octet in the lowest byte); a DnsEndPoint's host and port.
    public const string Socket = "System.Net.Sockets.Socket";
    public const string SocketRemote = "_remoteEndPoint";
    public const string SocketRight = "_rightEndPoint";
    public const string SocketListening = "_isListening";
    public const string SocketHandle = "_handle";
    public const string IPEndPoint = "System.Net.IPEndPoint";
    public const string DnsEndPoint = "System.Net.DnsEndPoint";
    public const string EndPointAddress = "_address";
    public const string EndPointPort = "_port";
    public const string AddressNumbers = "_numbers";
    public const string AddressV4 = "_addressOrScopeId";
    public static readonly string[] DnsHost = ["<Host>k__BackingField", "_host"];
    public static readonly string[] DnsPort = ["<Port>k__BackingField", "_port"];
    /// <summary>SafeSocketHandle on Unix caches SO_RCVTIMEO/SO_SNDTIMEO in ms, -1 for none (Socket.ReceiveTimeout 0 stores -1); Windows keeps them in the kernel only.</summary>
    public const string HandleReceiveTimeout = "_receiveTimeout";
    public const string HandleSendTimeout = "_sendTimeout";
    /// <summary>The IValueTaskSource behind Socket.ReceiveAsync/SendAsync(Memory) and NetworkStream.ReadAsync: one per socket and direction, taken out of the socket while an operation runs.</summary>
    public const string SocketOperation = "System.Net.Sockets.Socket+AwaitableSocketAsyncEventArgs";
    public const string OperationOwner = "_owner";
    /// <summary>SocketAsyncEventArgs+OperationState: 0 free, 1 in progress.</summary>
    public const string OperationState = "_operating";
    /// <summary>SocketAsyncOperation of the last operation started: 2 Connect, 4 Receive, 7 Send.</summary>
    public const string OperationKind = "_completedOperation";
    public const string OperationCore = "_mrvtsc";
    public const string CoreContinuation = "_continuation";
    public const string CoreState = "_continuationState";
    public const string CoreCompleted = "_completed";
    /// <summary>A ValueTask awaiter's value ("_value") and the task or IValueTaskSource it wraps ("_obj").</summary>
    public const string ValueTaskValue = "_value";
    public const string ValueTaskObject = "_obj";
    public const string StateMachineThis = "<>4__this";
    /// <summary>An async ValueTask method's pooled box (PoolingAsyncValueTaskMethodBuilder, as Npgsql uses): no task; its ManualResetValueTaskSourceCore holds the awaiting continuation.</summary>
    public const string PooledSource = "_valueTaskSource";
    // The timeouts clients keep: HttpClient._timeout (Timeout.InfiniteTimeSpan: none); Npgsql 10.0.3's read buffer,
    // whose Timeout setter (from Timeout while opening, CommandTimeout after) stores it in its resettable
    // CancellationTokenSource (Npgsql.Internal.NpgsqlReadBuffer.<Cts>k__BackingField.<Timeout>k__BackingField,
    // InfiniteTimeSpan or zero: none) and in the socket's receive timeout.
    public const string HttpClient = "System.Net.Http.HttpClient";
    public const string HttpClientTimeout = "_timeout";
    public const string TimeSpanTicks = "_ticks";
    public const string NpgsqlReadBuffer = "Npgsql.Internal.NpgsqlReadBuffer";
    public const string NpgsqlReadCts = "<Cts>k__BackingField";
    public const string NpgsqlCtsTimeout = "<Timeout>k__BackingField";
    // The finalizer thread: the method of the object it finalizes (every finalizer compiles to an override of Finalize).
    public const string FinalizeMethod = "Finalize";
}
