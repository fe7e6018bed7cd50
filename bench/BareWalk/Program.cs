// The floor for bench/run.sh: open a dump with the same ClrMD as DiagExt, walk every heap object once
// reading only its type, and print the count. Nothing else: no detector, no stacks, no reads of fields.
//   BareWalk <dump> [--lockfree]      --lockfree: ClrMD's memory-mapped reader (as diagext uses it)
using System.Diagnostics;
using Microsoft.Diagnostics.Runtime;

if (args.Length == 0 || args[0].StartsWith('-'))
{
    Console.Error.WriteLine("usage: BareWalk <dump> [--lockfree]");
    return 2;
}
var options = new DataTargetOptions { SymbolPaths = [], UseLockFreeMemoryMapReader = args.Contains("--lockfree") };
var total = Stopwatch.StartNew();
using DataTarget dataTarget = DataTarget.LoadDump(args[0], options);
ClrInfo clr = dataTarget.ClrVersions.Single();
// The DAC beside the runtime the dump names: bench dumps are made on this machine by this runtime (ClrMD 4.2
// lists only symbol-store names among its debugging libraries, so the path is made from the runtime's own).
string dac = Path.Combine(Path.GetDirectoryName(clr.ModuleInfo.FileName)!, "libmscordaccore.so");
using ClrRuntime runtime = clr.CreateRuntime(dac, ignoreMismatch: true);
TimeSpan opened = total.Elapsed;

long objects = 0, free = 0, untyped = 0;
ClrHeap heap = runtime.Heap;
// Carefully, as diagext walks: the plain walk ends a segment at a used-up allocation context (managed/DiagExt.Core/Heap/HeapIndex.cs).
foreach (ClrObject obj in heap.EnumerateObjects(carefully: true))
{
    ClrType? type = obj.Type;
    objects++;
    if (type is null)
        untyped++;
    else if (type.IsFree)
        free++;
}
Console.WriteLine($"bare walk: {objects:N0} objects ({free:N0} free, {untyped:N0} without a type) in {heap.Segments.Length} segments; " +
                  $"open {opened.TotalSeconds:F2}s, walk {(total.Elapsed - opened).TotalSeconds:F2}s");
Console.WriteLine($"OBJECTS {objects}");
return 0;
