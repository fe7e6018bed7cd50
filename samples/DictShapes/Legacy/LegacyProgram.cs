// The .NET Core 3.1 build of DictShapes: the legacy HashSet (_slots, _lastIndex, plain free list) and the
// .NET Core 3.x Dictionary, healthy and corrupt, dumped by 3.1's own createdump. It also measures what a
// lookup on a looping HashSet chain does on this runtime (throws, or never returns) and prints it.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Text.Json;
using System.Threading;

static class LegacyProgram
{
    public static Dictionary<string, int>? DictionarySelfCycle;
    public static HashSet<string>? HashSetSelfCycle;
    public static HashSet<string>? HashSetOrphan;
    public static readonly List<object> Healthy = new List<object>();

    static int Main(string[] args)
    {
        string mode = args.Length > 0 ? args[0] : "healthy";
        foreach (int size in new[] { 0, 1, 3, 100, 5000 })
        {
            Healthy.Add(Enumerable.Range(0, size).ToDictionary(i => "key " + i, i => i));
            Healthy.Add(new HashSet<string>(Enumerable.Range(0, size).Select(i => "s" + i)));
            Healthy.Add(new HashSet<int>(Enumerable.Range(0, size)));
        }
        var removed = new HashSet<int>(Enumerable.Range(0, 300));
        removed.RemoveWhere(v => v % 3 == 0); // plain free list in use
        Healthy.Add(removed);
        var dictRemoved = Enumerable.Range(0, 300).ToDictionary(i => i, i => i);
        for (int i = 0; i < 300; i += 4)
            dictRemoved.Remove(i);
        Healthy.Add(dictRemoved);

        if (mode == "corrupt")
        {
            DictionarySelfCycle = new Dictionary<string, int>(new Collide()) { ["k0"] = 0, ["k1"] = 1, ["k2"] = 2, ["k3"] = 3 };
            Tamper.SetNext(DictionarySelfCycle, 1, 1);
            Expect(nameof(DictionarySelfCycle), "self-cycle", new[] { 1 }, new[] { Tamper.BucketOf(DictionarySelfCycle, 1) });

            HashSetSelfCycle = new HashSet<string>(new Collide()) { "k0", "k1", "k2", "k3" };
            Tamper.SetNext(HashSetSelfCycle, 1, 1);
            Expect(nameof(HashSetSelfCycle), "self-cycle", new[] { 1 }, new[] { Tamper.BucketOf(HashSetSelfCycle, 1) });
            Expect(nameof(HashSetSelfCycle), "orphaned-entry", new[] { 0 }, new int[0]);

            HashSetOrphan = new HashSet<string>(new Collide()) { "k0", "k1", "k2", "k3" };
            Tamper.SetNext(HashSetOrphan, 2, 0);
            Expect(nameof(HashSetOrphan), "orphaned-entry", new[] { 1 }, new int[0]);

            Console.WriteLine("LOOKUP HashSet " + WhatLookupDoes(() => HashSetSelfCycle.Contains("zz")));
            Console.WriteLine("LOOKUP Dictionary " + WhatLookupDoes(() => DictionarySelfCycle.ContainsKey("zz")));
        }
        else if (mode != "healthy")
        {
            Console.Error.WriteLine("usage: DictShapes healthy|corrupt");
            return 2;
        }
        Console.WriteLine("READY " + System.Diagnostics.Process.GetCurrentProcess().Id);
        Thread.Sleep(Timeout.Infinite);
        return 0;
    }

    /// <summary>Runs a lookup that hashes into the loop on another thread: "throws X", "returns" or "never returns".</summary>
    static string WhatLookupDoes(Action lookup)
    {
        string outcome = "never returns (still spinning after 2 s)";
        var thread = new Thread(() =>
        {
            try
            {
                lookup();
                outcome = "returns";
            }
            catch (Exception e)
            {
                outcome = "throws " + e.GetType().Name;
            }
        }) { IsBackground = true, Name = "lookup-probe" };
        thread.Start();
        thread.Join(2000);
        return outcome;
    }

    static void Expect(string holder, string kind, int[] indices, int[] buckets) =>
        Console.WriteLine("EXPECT " + JsonSerializer.Serialize(new { holder = "LegacyProgram." + holder, kind, indices, buckets }));
}
