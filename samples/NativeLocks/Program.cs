// Hangs across the managed/native boundary on Linux, for the `hang` detector's native-lock source. Each mode builds its
// hang, waits until every thread that should be blocked is (a managed one in WaitSleepJoin, a native one in the futex
// system call, on several looks in a row), prints the ground truth and "READY <pid>", then stays hung until killed.
// Ground truth lines: "thread NAME managed ID os TID holds X waits Y" and "mutex NAME 0xADDRESS".
//
//   nativemutex  thread caller holds Monitor LedgerLock and calls pthread_mutex_lock on a mutex thread native holds,
//                which waits for LedgerLock: one cycle, half managed, half native
//   dlopen       thread loader dlopens libnlslowinit.so, whose constructor waits (under glibc's loader lock) for a
//                mutex thread gatekeeper holds; gatekeeper then dlopens libnlother.so and waits for the loader lock
//   dlopenchain  thread loader dlopens libnlstuckinit.so, whose constructor sleeps for good under the loader lock;
//                threads first and second each call dlopen and wait for it: a chain behind loader, no cycle
//   sqlite       a real library's mutex (SQLitePCLRaw's e_sqlite3): thread query runs a statement whose user function
//                waits for Monitor CacheLock, holding the connection's mutex; thread cache holds CacheLock and calls
//                sqlite3_exec on that connection
//   healthy      thread waiter waits on a mutex thread sleeper holds while it sleeps: one waiter, no cycle

using NativeLocks;

string mode = args.Length > 0 ? args[0] : "nativemutex";
Action? build = mode switch
{
    "nativemutex" => MixedCycle.Run,
    "dlopen" => LoaderLockCycle.Run,
    "dlopenchain" => LoaderLockChain.Run,
    "sqlite" => SqliteCycle.Run,
    "healthy" => HealthyWait.Run,
    _ => null,
};
if (build is null)
{
    Console.Error.WriteLine($"unknown mode {mode}");
    return 2;
}
if (!OperatingSystem.IsLinux())
{
    Console.Error.WriteLine("NativeLocks reproduces glibc's locks: Linux only");
    return 2;
}
int pid = Environment.ProcessId; // read before the dlopen mode holds the loader lock: its first read is a P/Invoke, resolved by dlopen
build();
Console.WriteLine($"READY {pid}");
Thread.Sleep(Timeout.Infinite);
return 0;
