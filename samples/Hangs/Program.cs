// The hangs .NET services hit most, one per mode, for the `hang` detector's tests. Each mode builds its hang,
// waits until every thread that should be blocked is (ThreadState WaitSleepJoin for a while, or the pool's
// counts), prints what it built (the ground truth: which managed thread holds and waits for which lock) and
// "READY <pid>", then stays hung until killed.
//
//   monitor2     two threads take two Monitor locks in opposite order
//   monitor3     a three-thread Monitor cycle, plus a bystander waiting on one of its locks
//   lock3        the same with System.Threading.Lock (.NET 9+)
//   semaphore    two async methods, each holding one SemaphoreSlim and awaiting the other's
//   starvation   every pool worker blocks in .Result on a task whose continuation needs a pool worker
//   rwlock       a ReaderWriterLockSlim upgrade blocked by a reader that waits on the upgrader's Monitor
//   tcs          a thread blocked on a TaskCompletionSource's task nobody completes
//   join         monitor2, plus a thread in Thread.Join on one of the cycle's threads
//   mres         a thread waiting on a ManualResetEventSlim only its own stack holds
//   taskwait     a thread holding a lock blocks in .Wait() on an async method whose continuation needs that lock
//   taskhealthy  threads in Task.Wait on a Task.Delay and in .Result on a promise a running thread will complete
//   chain        two threads blocked one behind the other behind a thread that sleeps holding the first lock
//   healthy      busy and contended, nothing hung
//   late [S]     runs as contended, then after S seconds (default 8) two threads deadlock on two Monitor locks
//   chaingc      the chain, beside two threads that allocate and force compacting collections without end
//   contended    four threads take one lock in turn, its holder sometimes sleeping 3 ms inside: one dump shows a chain, nothing is stuck
//   synccontext  two threads, each pumping a single-threaded SynchronizationContext, block in .Result on async methods whose continuations need that context
//   synccontexthealthy  the same threads with ConfigureAwait(false) inside: nothing is deadlocked
//   finalizer    the finalizer thread blocked in a Finalize on a Monitor a thread holds while it waits on an event nobody sets; 5,000 objects queued behind it
//   finalizerslow  a finalizer that sleeps 50 ms per object: busy, not blocked, 4,000 objects queued
//   eventsource  the runtime's EventSource: a listener's EventSourceCreated handler waits holding EventListenersLock; dropped EventSources block the finalizer on it
//   remote       threads and requests waiting on two loopback servers that accept and never answer: sync Socket.Receive and
//                HttpClient .Result with no timeout, pure async requests, one HttpClient with a 100 s timeout
//   remotehealthy  a healthy client under load: a loopback server that answers at once, threads looping on requests
//   criticalsection  (Windows, Wine) a thread holding a Win32 critical section waits on a Monitor whose holder is in EnterCriticalSection on it

using Hangs;

string mode = args.Length > 0 ? args[0] : "monitor2";
Action? build = mode switch
{
    "monitor2" => MonitorDeadlock.TwoThreads,
    "monitor3" => MonitorDeadlock.ThreeThreadsAndBystander,
    "lock3" => LockDeadlock.ThreeThreadsAndBystander,
    "semaphore" => SemaphoreDeadlock.Run,
    "starvation" => Starvation.Run,
    "rwlock" => UpgradeDeadlock.Run,
    "tcs" => NeverCompleted.Run,
    "join" => TaskWaits.JoinOntoDeadlock,
    "mres" => TaskWaits.ResetEventNeverSet,
    "taskwait" => TaskWaits.TaskWaitUnderLock,
    "taskhealthy" => TaskWaits.HealthyTaskWaits,
    "chain" => BlockedChain.Run,
    "healthy" => BusyHealthy.Run,
    "contended" => Contended.Run,
    "finalizer" => BlockedFinalizer.Run,
    "finalizerslow" => SlowFinalizer.Run,
    "eventsource" => ListenerBlocksFinalizer.Run,
    "chaingc" => BlockedChain.RunWhileCollecting,
    "synccontext" => ContextDeadlock.Run,
    "synccontexthealthy" => ContextDeadlock.Healthy,
    "remote" => RemoteWaits.Run,
    "remotehealthy" => RemoteWaits.Healthy,
    "criticalsection" => CriticalSectionDeadlock.Run,
    "late" => () => LateDeadlock.Run(TimeSpan.FromSeconds(args.Length > 1 ? int.Parse(args[1]) : 8)),
    _ => null,
};
if (build is null)
{
    Console.Error.WriteLine($"unknown mode {mode}");
    return 2;
}
build();
Console.WriteLine($"READY {Environment.ProcessId}");
Thread.Sleep(Timeout.Infinite);
return 0;
