// Builds Dictionary/HashSet instances of many shapes and keeps them alive for a dump:
//   DictShapes healthy   only healthy instances (sizes, key/value kinds, free lists in use, HashSets)
//   DictShapes corrupt   the healthy ones plus one instance per corruption class, each in a static field
//                        of Corrupt named after its class, and an "EXPECT {json}" line per instance saying
//                        which defect, entry indices and buckets diagext must report.
using System.Text.Json;

string mode = args.FirstOrDefault() ?? "healthy";
Healthy.Build();
if (mode == "corrupt")
    Corrupt.Build();
else if (mode != "healthy")
{
    Console.Error.WriteLine("usage: DictShapes healthy|corrupt");
    return 2;
}
GC.KeepAlive(Healthy.All);
Console.WriteLine($"READY {Environment.ProcessId}");
Thread.Sleep(Timeout.Infinite);
return 0;

static class Expect
{
    public static void Line(string holder, string kind, int[] indices, int[] buckets) =>
        Console.WriteLine("EXPECT " + JsonSerializer.Serialize(new { holder = $"Corrupt.{holder}", kind, indices, buckets }));
}
