// A lock-order deadlock nobody here wrote half of: log4net 3.5.0's appender lock (AppenderSkeleton.DoAppend holds a
// Monitor while the layout renders the message) against an application lock. The "pricing" thread logs an Order, and
// log4net, inside its appender lock, calls Order.ToString(), which takes the order book's lock; the "orders" thread
// holds the order book's lock and logs, so it waits for the appender. Two signals only order the two steps so the
// hang happens every time; both locks are taken by the code as a service would write it.
// GROUND-TRUTH.md beside this file says what hang must report, written before diagext was run on it.

using log4net;
using log4net.Appender;
using log4net.Config;
using log4net.Layout;

var layout = new PatternLayout("%date %thread %message%newline");
layout.ActivateOptions();
var appender = new ConsoleAppender { Layout = layout };
appender.ActivateOptions();
BasicConfigurator.Configure(LogManager.GetRepository(typeof(OrderBook).Assembly), appender);

var pricing = new Thread(OrderBook.LogAnOrder) { IsBackground = true, Name = "pricing" };
var orders = new Thread(OrderBook.UpdateAndLog) { IsBackground = true, Name = "orders" };
pricing.Start();
orders.Start();
for (int i = 0; i < 600 && !((pricing.ThreadState & ThreadState.WaitSleepJoin) != 0 && (orders.ThreadState & ThreadState.WaitSleepJoin) != 0 && OrderBook.BothIn); i++)
    Thread.Sleep(50);
Thread.Sleep(500);
Console.WriteLine($"thread pricing managed {pricing.ManagedThreadId} holds appender waits OrderBook.Gate");
Console.WriteLine($"thread orders managed {orders.ManagedThreadId} holds OrderBook.Gate waits appender");
Console.WriteLine($"READY {Environment.ProcessId}");
Thread.Sleep(Timeout.Infinite);

static class OrderBook
{
    public static readonly object Gate = new();
    private static readonly ILog Log = LogManager.GetLogger(typeof(OrderBook));
    private static readonly ManualResetEventSlim InAppender = new();
    private static readonly ManualResetEventSlim GateTaken = new();
    public static volatile bool BothIn;

    /// <summary>Logs an order object: log4net renders it (ToString) inside its appender lock.</summary>
    public static void LogAnOrder() => Log.Info(new Order(42));

    /// <summary>Updates the book under its lock and logs the update.</summary>
    public static void UpdateAndLog()
    {
        InAppender.Wait();
        lock (Gate)
        {
            GateTaken.Set();
            BothIn = true;
            Log.Info("order book updated");
        }
    }

    public sealed record Order(int Id)
    {
        public override string ToString()
        {
            InAppender.Set();
            GateTaken.Wait();
            lock (Gate)
                return $"order {Id}";
        }
    }
}
