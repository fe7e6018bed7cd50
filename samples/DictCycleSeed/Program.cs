// The program from ../shared/reference/dictionary-hang.txt, unchanged but for braces the blog lost.
// On .NET Framework it hangs; on .NET Core 3.1+ a lookup on the looping chain throws and the process
// dies of the unhandled exception. The tests run it with DOTNET_DbgEnableMiniDump=1, so the runtime's
// createdump writes a full dump at that moment: a dump of a process running the seed's program.
//
// With --catch, three threads run the same Modify() in a loop with every call wrapped in try/catch, as a real
// service does: the process lives on with its corrupt table, its threads throwing from it (the dump a user takes
// of a service that logs "concurrent operations not supported" and carries on). It prints "READY <pid>" once the
// table has thrown a few times, and exits 3 when the first inserts did not race (the tests launch it again).
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace ConcurrentDictionary
{
    class Program
    {
        static Dictionary<string, int> _dict = new();

        static void Modify()
        {
            for (int i = 0; i < 10; i++)
            {
                string key = $"Key {i}";
                _dict[key] = 1;
            }
        }

        static void Main(string[] args)
        {
            if (args.Length == 1 && args[0] == "--catch")
            {
                Environment.Exit(Caught.Run(Modify, mainReturns: false));
            }
            if (args.Length == 2 && args[0] == "--catch" && args[1] == "--main-returns")
            {
                int code = Caught.Run(Modify, mainReturns: true);
                if (code != 0)
                    Environment.Exit(code);
                return; // the writers are foreground threads: the process lives on after Main
            }

            for (int k = 0; k < 1_000_000; k++)
            {
                if (k % 100 == 0)
                {
                    Console.WriteLine($"Modify Run {k}");
                }

                Parallel.Invoke(Modify, Modify, Modify);
            }
        }
    }

    /// <summary>
    /// Three threads running the seed's Modify() in a loop, each call caught: not the seed's code, the harness around it.
    /// With mainReturns the main thread throws from the table too until READY, then returns from Main while the three
    /// (foreground) threads go on: a main thread that has left all managed code behind.
    /// </summary>
    static class Caught
    {
        static readonly TimeSpan RaceWindow = TimeSpan.FromMilliseconds(500);
        const int ThrowsBeforeReady = 50;
        static int _thrown;

        public static int Run(Action modify, bool mainReturns)
        {
            void Once()
            {
                try
                {
                    modify();
                }
                catch (Exception e)
                {
                    if (Interlocked.Increment(ref _thrown) == 1)
                        Console.WriteLine($"corrupt: {e.GetType().Name}: {e.Message}");
                }
            }

            void Loop()
            {
                while (true)
                    Once();
            }

            // The seed's first round as it is: only the first inserts can race (later rounds overwrite existing keys),
            // and Parallel.Invoke starts its three calls closer together than three new threads start.
            try
            {
                Parallel.Invoke(modify, modify, modify);
            }
            catch (AggregateException e)
            {
                Interlocked.Increment(ref _thrown);
                Console.WriteLine($"corrupt: {e.InnerException?.GetType().Name}: {e.InnerException?.Message}");
            }
            var hammers = new List<int>();
            for (int i = 0; i < 3; i++)
            {
                var hammer = new Thread(Loop) { IsBackground = !mainReturns };
                hammer.Start();
                hammers.Add(hammer.ManagedThreadId);
            }
            // The ground truth a test compares the threads DiagExt names with: these, and no other, use the table now.
            Console.WriteLine($"HAMMERING {string.Join(" ", hammers)}");
            // The writers race only while the keys are new: a table that survived the first inserts stays healthy.
            var clock = System.Diagnostics.Stopwatch.StartNew();
            while (Volatile.Read(ref _thrown) < ThrowsBeforeReady)
            {
                if (clock.Elapsed > RaceWindow)
                {
                    Console.WriteLine($"no race in {RaceWindow.TotalSeconds} s");
                    return 3;
                }
                if (mainReturns)
                    Once();
                else
                    Thread.Sleep(10);
            }
            Console.WriteLine($"READY {Environment.ProcessId}");
            if (!mainReturns)
                Thread.Sleep(Timeout.Infinite);
            return 0;
        }
    }
}
