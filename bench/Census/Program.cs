// dictcycle's exception census alone: the stack traces of a dump's InvalidOperationException/IndexOutOfRangeException
// objects read with ClrMD's enumerator (two DAC lookups per frame, what the census did before) and with
// ExceptionStackTraces (one lookup per distinct method), in turns, in one process; then the whole census
// (CollectionExceptions.Find). Checks that both readers give the same frames.
//   Census <dump> [runs]
using System.Diagnostics;
using DiagExt.Core.Detectors.DictCycle;
using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

if (args.Length == 0)
{
    Console.Error.WriteLine("usage: Census <dump> [runs]");
    return 2;
}
int runs = args.Length > 1 ? int.Parse(args[1]) : 3;
const int maxFrames = 16;
using Target target = TargetOpener.OpenDump(args[0]);
ClrHeap heap = target.Runtime!.Heap;
IHeapInterest interest = new DictCycleDetector().HeapInterest;
HeapIndex index = HeapIndex.Build(heap, [interest], default, target.FileMemory);
List<ClrException> exceptions = index.ObjectsFor(interest).Where(DictCycleInterest.IsException)
    .Take(CollectionExceptions.MaxExamined).Select(o => o.AsException()).OfType<ClrException>().ToList();
if (exceptions.Count == 0)
{
    Console.Error.WriteLine("no InvalidOperationException or IndexOutOfRangeException on this dump's heap");
    return 1;
}

List<ClrObject> objects = exceptions.Select(e => heap.GetObject(e.Address)).ToList();
int found = 0;
var watch = new Stopwatch();
var clrmd = new List<double>();
var cached = new List<double>();
var census = new List<double>();
var censusCpu = new List<double>();
int frames = 0, mismatches = 0, methods = 0;
for (int run = 0; run < runs; run++)
{
    // A new runtime each turn would reopen the dump; ClrMD keeps its own method cache either way, so each turn
    // measures the lookups, not first-time type loading (the first turn pays that for both, ClrMD's first).
    watch.Restart();
    var byClrMd = exceptions.Select(e => ExceptionStackTraces.ClrMdFrames(e, maxFrames)).ToList();
    clrmd.Add(watch.Elapsed.TotalMilliseconds);

    watch.Restart();
    var reader = new ExceptionStackTraces(target);
    var byReader = exceptions.Select(e => reader.Read(e, maxFrames)).ToList();
    cached.Add(watch.Elapsed.TotalMilliseconds);
    methods = reader.MethodsResolved;

    frames = byClrMd.Sum(f => f.Count);
    mismatches = byClrMd.Zip(byReader).Count(p => !p.First.SequenceEqual(p.Second));

    TimeSpan cpuBefore = Process.GetCurrentProcess().TotalProcessorTime;
    watch.Restart();
    found = CollectionExceptions.Find(target, objects, default).Count;
    census.Add(watch.Elapsed.TotalMilliseconds);
    censusCpu.Add((Process.GetCurrentProcess().TotalProcessorTime - cpuBefore).TotalMilliseconds);
}
Console.WriteLine($"exceptions: {exceptions.Count:N0} examined, {frames:N0} frames, {methods:N0} distinct methods; readers disagree on {mismatches} stack traces");
Console.WriteLine($"ClrMD enumerator: first {clrmd[0]:F1} ms, fastest of {runs} {clrmd.Min():F1} ms ({clrmd.Min() * 1000 / exceptions.Count:F1} us per exception)");
Console.WriteLine($"ExceptionStackTraces: first {cached[0]:F1} ms, fastest of {runs} {cached.Min():F1} ms ({cached.Min() * 1000 / exceptions.Count:F1} us per exception)");
Console.WriteLine($"ratio (fastest, cached/ClrMD): {cached.Min() / clrmd.Min():F3}");
Console.WriteLine($"whole census (CollectionExceptions.Find): first {census[0]:F1} ms (CPU {censusCpu[0]:F1} ms), fastest {census.Min():F1} ms (CPU {censusCpu.Min():F1} ms); {found:N0} exceptions a collection threw");
Console.WriteLine($"CENSUS_MS {census[0]:F1}");
return mismatches == 0 ? 0 : 1;
