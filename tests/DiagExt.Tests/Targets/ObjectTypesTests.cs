using DiagExt.Core.Targets;
using DiagExt.Tests.Infrastructure;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.Targets;

/// <summary>
/// ObjectTypes asks the DAC for a type only when the word at the address can be a MethodTable: the DAC faults
/// (SIGSEGV) on some garbage ones, seen on a core of the Hangs sample's busy socket client where a stack word pointed
/// inside an object whose first field was another heap address. On a real dump: every object of the heap walk keeps
/// its type (strings, arrays and free space included), and an address inside an object whose word there points into
/// the GC heap is no object.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class ObjectTypesTests
{
    [Test]
    public void Objects_keep_their_type_and_heap_pointers_inside_objects_are_no_method_table()
    {
        string dump = DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core");
        using Target target = TargetOpener.OpenDump(dump);
        ClrHeap heap = target.Runtime!.Heap;
        IDataReader reader = target.Runtime.DataTarget.DataReader;
        int objects = 0, interior = 0;
        var kinds = new HashSet<string>();
        foreach (ClrObject obj in heap.EnumerateObjects().Take(50_000))
        {
            if (obj.Type is not { } type)
                continue;
            objects++;
            Assert.That(ObjectTypes.Of(heap, obj.Address)?.MethodTable, Is.EqualTo(type.MethodTable), $"object at 0x{obj.Address:x} ({type.Name})");
            if (type.IsString) kinds.Add("string");
            if (type.IsArray) kinds.Add("array");
            if (type.IsFree) kinds.Add("free");
            ulong inside = obj.Address + (ulong)reader.PointerSize;
            if (obj.Size > (ulong)(2 * reader.PointerSize) && reader.ReadPointer(inside, out ulong word) && heap.GetSegmentByAddress(word & ~3UL) is not null)
            {
                interior++;
                Assert.That(ObjectTypes.Of(heap, inside), Is.Null, $"0x{inside:x} inside {type.Name} holds heap address 0x{word:x}");
            }
        }
        Assert.That(objects, Is.GreaterThan(1_000));
        Assert.That(interior, Is.GreaterThan(50), "objects whose first field is a reference");
        Assert.That(kinds, Is.SupersetOf(new[] { "string", "array" }));
        Assert.That(ObjectTypes.Of(heap, 0), Is.Null);
    }
}
