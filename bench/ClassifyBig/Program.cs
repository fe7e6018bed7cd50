// The dictcycle classifier alone on the largest Dictionary/HashSet of a dump: the issue's "the 5M-entry
// dictionary is checked in under a second". Reads the instance once (timed), then classifies it a few
// times: the first run is what analyze pays, the fastest is the classifier's speed without the machine's load.
// The installed diagext is compiled ahead of time (Native AOT), so before the first run the classifier's code is
// compiled by classifying the second largest table (its concurrent path too); --cold skips that, and the first run
// then also pays the JIT, as the framework-dependent forms (the 'any' tool package) do.
//   ClassifyBig <dump> [runs] [--cold]
using System.Diagnostics;
using DiagExt.Core.Detectors.DictCycle;
using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

if (args.Length == 0)
{
    Console.Error.WriteLine("usage: ClassifyBig <dump> [runs]");
    return 2;
}
int runs = args.Length > 1 && int.TryParse(args[1], out int n) ? n : 5;
bool cold = args.Contains("--cold");
using Target target = TargetOpener.OpenDump(args[0]);
ClrHeap heap = target.Runtime!.Heap;
IHeapInterest tables = new DictCycleDetector().HeapInterest;
HeapIndex index = HeapIndex.Build(heap, [tables], default, target.FileMemory);

// The largest instance by entry-array length: its entry array is the biggest of all.
(ClrObject Table, ClrType EntryArray, int Length) largest = default, second = default;
foreach (ClrObject table in index.ObjectsFor(tables))
{
    if (HashTableShape.EntriesField(table.Type!) is not { } field)
        continue;
    ClrObject entries = table.ReadObjectField(field);
    if (entries.IsNull || entries.Type is null)
        continue;
    int length = TargetArrays.ReadLength(target, entries.Address);
    if (length > largest.Length)
        (second, largest) = (largest, (table, entries.Type, length));
    else if (length > second.Length)
        second = (table, entries.Type, length);
}
if (largest.Length == 0)
{
    Console.Error.WriteLine("no Dictionary or HashSet with entries in this dump");
    return 1;
}

HashTableShape shape = HashTableShape.TryCreate(largest.Table.Type!, largest.EntryArray!)!;
var watch = Stopwatch.StartNew();
var (status, instance, problem) = HashTableReader.Read(target, largest.Table.Address, shape, heap);
TimeSpan read = watch.Elapsed;
if (instance is null)
{
    Console.Error.WriteLine($"cannot read the largest table ({status}): {problem}");
    return 1;
}

// The careful chain walk alone (what every table paid before ChainProof), for the comparison in bench/RESULTS.md.
var careful = new List<double>();
for (int i = 0; i < runs; i++)
{
    watch.Restart();
    HashTableClassifier.Classify(instance.Image, fastPath: false);
    careful.Add(watch.Elapsed.TotalSeconds);
}

bool concurrent = Environment.ProcessorCount > 1;
string compiled = "the JIT compiling as it goes (--cold)";
if (!cold)
{
    compiled = "no table to compile the code on first: the JIT compiling as it goes";
    if (second.Length > 0 && HashTableShape.TryCreate(second.Table.Type!, second.EntryArray!) is { } secondShape
        && HashTableReader.Read(target, second.Table.Address, secondShape, heap) is (HashTableReader.Status.Read, { } warm, _))
    {
        HashTableClassifier.Classify(warm.Image, fastPath: true, concurrentFrom: concurrent ? 0 : int.MaxValue);
        compiled = $"code compiled before on the second largest table ({second.Length:N0} slots), as the native analyze has it";
    }
}
var times = new List<double>();
var cpu = new List<double>();
HashTableDiagnosis? diagnosis = null;
for (int i = 0; i < runs; i++)
{
    TimeSpan cpuBefore = Process.GetCurrentProcess().TotalProcessorTime;
    watch.Restart();
    diagnosis = HashTableClassifier.Classify(instance.Image, concurrent: concurrent); // as analyze does with more than one thread
    times.Add(watch.Elapsed.TotalSeconds);
    cpu.Add((Process.GetCurrentProcess().TotalProcessorTime - cpuBefore).TotalSeconds);
}
Console.WriteLine($"largest table: {largest.Table.Type!.Name} at 0x{largest.Table.Address:x}, {instance.Image.Count:N0} entries " +
                  $"({instance.Image.EntriesLength:N0} slots); {(diagnosis!.IsHealthy ? "healthy" : $"{diagnosis.Defects.Count} defects")}");
// The first run is what analyze pays (the code is just compiled); the fastest is the classifier's own speed.
Console.WriteLine($"read {read.TotalSeconds:F3}s; classify{(concurrent ? " (equal hash codes beside the proof, as analyze on 2+ cores)" : "")}, {compiled}: first run {times[0]:F3}s (CPU {cpu[0]:F3}s), fastest of {runs} {times.Min():F3}s (CPU {cpu.Min():F3}s)");
Console.WriteLine($"careful walk alone (no ChainProof): fastest of {runs} {careful.Min():F3}s");
// What analyze does first with a table of a thousand entries or more (HashTableStream): the proof from the target's bytes
// as they stream past, no copy of the arrays; the read above and the classification are what it pays when that fails.
if (HashTableReader.ReadHeader(target, largest.Table.Address, shape, heap) is (HashTableReader.Status.Read, { } header, _))
{
    int parts = concurrent ? 2 : 1;
    if (!cold && second.Length > 0 && HashTableShape.TryCreate(second.Table.Type!, second.EntryArray!) is { } warmShape
        && HashTableReader.ReadHeader(target, second.Table.Address, warmShape, heap) is (HashTableReader.Status.Read, { } warmHeader, _))
        HashTableStream.ProvenHealthy(target, warmHeader, warmShape, heap, parts);
    var streamed = new List<double>();
    bool proven = false;
    for (int i = 0; i < runs; i++)
    {
        watch.Restart();
        proven = HashTableStream.ProvenHealthy(target, header, shape, heap, parts);
        streamed.Add(watch.Elapsed.TotalSeconds);
    }
    Console.WriteLine($"streamed proof (what analyze does first with 1 K entries or more): {(proven ? "proven healthy" : "not proven, so read and classified")}, first run {streamed[0]:F3}s, fastest of {runs} {streamed.Min():F3}s");
}
// The fast path's phases one by one (fastest of the runs): which of them grows faster than the table.
HashTableImage image = instance.Image;
int used = Math.Clamp(image.Layout.HighWaterIsLastIndex ? image.LastIndex ?? 0 : image.Count, 0, image.EntriesLength);
var proof = new List<double>();
var equalHashes = new List<double>();
var compare = new List<double>();
int pairCount = 0;
for (int i = 0; i < runs; i++)
{
    watch.Restart();
    ChainProof.Prove(image, used);
    proof.Add(watch.Elapsed.TotalSeconds);
    var pairs = new DuplicateKeyCandidates();
    watch.Restart();
    if (image.KeysEqual is not null)
        EqualHashGroups.Collect(image, used, pairs);
    equalHashes.Add(watch.Elapsed.TotalSeconds);
    pairCount = pairs.Pairs.Count;
    watch.Restart();
    if (pairCount > 0)
        image.KeysEqual!(pairs.Pairs);
    compare.Add(watch.Elapsed.TotalSeconds);
}
Console.WriteLine($"phases (fastest of {runs}): chain proof {proof.Min():F3}s, equal hash codes {equalHashes.Min():F3}s, " +
                  $"key comparison {compare.Min():F3}s of {pairCount:N0} candidate pairs; " +
                  $"per entry: proof {proof.Min() * 1e9 / Math.Max(used, 1):F1} ns, equal hash codes {equalHashes.Min() * 1e9 / Math.Max(used, 1):F1} ns, comparison {compare.Min() * 1e9 / Math.Max(used, 1):F1} ns");
// A hostile table: the same entries with hash codes made equal (one code per 64 keys, then one code for all), as a
// comparer that hashes badly gives. Its pairs are a square of each run's length; the filter keeps the careful walk's
// first MaxPerChain of a bucket and MaxPairs of a table, so its cost per entry must stay near the healthy table's.
foreach (var (label, rehash) in new (string, Func<int, int>)[] { ("one code per 64 keys", h => h & ~63), ("one code for all keys", _ => 0x2a) })
{
    var hostile = new HashTableImage
    {
        Layout = image.Layout, Buckets = image.Buckets, Nexts = image.Nexts, Blank = image.Blank, Count = image.Count,
        FreeList = image.FreeList, FreeCount = image.FreeCount, LastIndex = image.LastIndex,
        HashCodes = image.HashCodes.Select(h => h < 0 ? h : rehash(h)).ToArray(),
    };
    var collect = new List<double>();
    int hostilePairs = 0;
    for (int i = 0; i < runs; i++)
    {
        var pairs = new DuplicateKeyCandidates();
        watch.Restart();
        EqualHashGroups.Collect(hostile, used, pairs);
        collect.Add(watch.Elapsed.TotalSeconds);
        hostilePairs = pairs.Pairs.Count;
    }
    Console.WriteLine($"hostile table, {label}: equal hash codes {collect.Min():F3}s (fastest of {runs}), {hostilePairs:N0} candidate pairs, " +
                      $"{collect.Min() * 1e9 / Math.Max(used, 1):F1} ns per entry");
}
Console.WriteLine($"CLASSIFY_SECONDS {times[0]:F3}");
return 0;
