using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Heap;

/// <summary>The real dump the heap-layer tests read: samples/DictShapes with its corrupt tables (cached per run).</summary>
internal static class HeapTestDump
{
    public static string Path => DumpMaker.DumpOfSampleWithOutput("DictShapes", "net10.0", "dictshapes-corrupt.core", "corrupt").Path;
}
