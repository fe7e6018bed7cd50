// Builds a large managed heap for bench/run.sh and keeps it alive for createdump:
//   HeapGen full    at least 10 million objects, one Dictionary with 5 million entries
//   HeapGen quick   the same mix at about a tenth of the size
//   HeapGen full 4  the full plan with every count times 4 (growth: bench/RESULTS.md)
// Prints "PLAN ..." (what was built), "EXPECT-FINDINGS n" (the corrupt instances dictcycle must report)
// and "READY <pid>", then sleeps until killed.
using System.Diagnostics;

HeapPlan? plan = args.FirstOrDefault() switch
{
    "full" => HeapPlan.Full,
    "quick" => HeapPlan.Quick,
    _ => null,
};
int factor = 1;
if (plan is null || (args.Length > 1 && (!int.TryParse(args[1], out factor) || factor is < 1 or > 8)))
{
    Console.Error.WriteLine("usage: HeapGen full|quick [factor 1-8]");
    return 2;
}
plan = plan.Scaled(factor);

var watch = Stopwatch.StartNew();
var tables = new Tables(plan);
tables.Build();
var filler = new Filler(plan);
filler.Build();
int corrupt = Corruptions.Build();
Waiters.Start(plan.WaitingThreads);

GC.Collect();
Console.WriteLine($"PLAN {plan.Name}: big dictionary {plan.BigEntries:N0} entries; {tables.Count:N0} dictionaries and hash sets " +
                  $"holding {tables.Entries:N0} entries; {filler.Objects:N0} strings, arrays and nodes; {plan.WaitingThreads} waiting threads; " +
                  $"managed heap {GC.GetTotalMemory(false) / (1024 * 1024):N0} MB; built in {watch.Elapsed.TotalSeconds:F1}s");
Console.WriteLine($"EXPECT-FINDINGS {corrupt}");
Console.WriteLine($"READY {Environment.ProcessId}");
GC.KeepAlive(tables);
GC.KeepAlive(filler);
Thread.Sleep(Timeout.Infinite);
return 0;
