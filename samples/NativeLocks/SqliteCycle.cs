using SQLitePCL;

namespace NativeLocks;

/// <summary>
/// A cycle through a real native library's own lock: SQLite runs a user function with the connection's mutex held
/// (sqlite3_step enters db->mutex, a recursive pthread mutex when the connection is opened with
/// SQLITE_OPEN_FULLMUTEX), and the function here takes a Monitor; the thread holding that Monitor calls into the same
/// connection and waits for its mutex.
/// </summary>
internal static class SqliteCycle
{
    public static readonly object CacheLock = new();

    public static void Run()
    {
        Batteries_V2.Init();
        int rc = raw.sqlite3_open_v2(":memory:", out sqlite3 db, raw.SQLITE_OPEN_READWRITE | raw.SQLITE_OPEN_CREATE | raw.SQLITE_OPEN_FULLMUTEX, null);
        if (rc != raw.SQLITE_OK)
            throw new InvalidOperationException($"sqlite3_open_v2: {rc}");
        using var cacheHeld = new ManualResetEventSlim();
        using var inFunction = new ManualResetEventSlim();
        raw.sqlite3_create_function(db, "cached_value", 0, null, (ctx, _, _) =>
        {
            inFunction.Set();
            Blocked.Say("SqliteConnectionMutex", "CacheLock");
            lock (CacheLock)
                raw.sqlite3_result_int(ctx, 1);
        });
        int cacheTid = 0;
        Thread cache = Blocked.Start("cache", () =>
        {
            lock (CacheLock)
            {
                cacheHeld.Set();
                inFunction.Wait();
                cacheTid = Blocked.Say("CacheLock", "SqliteConnectionMutex");
                raw.sqlite3_exec(db, "SELECT 1");
                Console.WriteLine("unreachable");
            }
        });
        Thread query = Blocked.Start("query", () =>
        {
            cacheHeld.Wait();
            raw.sqlite3_exec(db, "SELECT cached_value()");
            Console.WriteLine("unreachable");
        });
        while (Volatile.Read(ref cacheTid) == 0)
            Thread.Sleep(10);
        Blocked.WaitFor([query], [cacheTid]);
    }
}
