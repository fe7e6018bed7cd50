using DiagExt.Core.Detectors.DictCycle;
using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using DiagExt.Tests.Heap;
using DiagExt.Tests.Infrastructure;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.DictCycle;

/// <summary>
/// A big table proven healthy from the target's bytes as they stream past (HashTableStream) must be one the image and
/// the classifier call healthy, and every table nothing was removed from that they call healthy must be proven so:
/// checked on every Dictionary/HashSet of a real dump (the runtime's and the sample's, corrupt ones among them), with
/// one stretch and with two read side by side. The proof's sums are ChainProof's own (ChainSums), which
/// ChainProofTests also checks on damaged tables.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class HashTableStreamTests
{
    [Test]
    public void Streamed_proof_agrees_with_the_image_on_every_table_of_a_real_dump()
    {
        using Target target = TargetOpener.OpenDump(HeapTestDump.Path);
        ClrHeap heap = target.Runtime!.Heap;
        int tables = 0, streamed = 0, corrupt = 0, keyed = 0;
        foreach (var (table, shape) in DumpTables.Shaped(target))
        {
            if (HashTableReader.ReadHeader(target, table.Address, shape, heap) is not (HashTableReader.Status.Read, { } header, _)
                || HashTableReader.Read(target, header, shape, heap) is not (HashTableReader.Status.Read, { } instance, _))
                continue;
            string name = $"{table.Type!.Name} at 0x{table.Address:x}";
            HashTableImage image = instance.Image;
            HashTableDiagnosis diagnosis = HashTableClassifier.Classify(image);
            bool one = HashTableStream.ProvenHealthy(target, header, shape, heap, parts: 1);
            Assert.That(HashTableStream.ProvenHealthy(target, header, shape, heap, parts: 2), Is.EqualTo(one), $"{name}: two stretches");
            Assert.That(HashTableStream.ProvenHealthy(target, header, shape, heap, parts: 1, key: 0), Is.EqualTo(one), $"{name}: another key");
            if (one)
                Assert.That(diagnosis.IsHealthy, name + ": proven healthy from its bytes, but the classifier finds " + string.Join(", ", diagnosis.Defects.Select(d => d.Kind)));
            int used = image.Layout.HighWaterIsLastIndex ? image.LastIndex ?? 0 : image.Count;
            // Nothing removed: no free entry, and every next goes to a lower index (a reused slot's may not; ChainProof then
            // looks for loops, which the stream leaves to the image).
            bool nothingRemoved = image.FreeList == -1 && used > 0 && Enumerable.Range(0, Math.Min(used, image.EntriesLength)).All(i => !image.IsFree(i) && image.Nexts[i] < i);
            if (diagnosis.IsHealthy && nothingRemoved)
                Assert.That(one, Is.True, $"{name}: healthy and nothing removed, but not proven from its bytes");
            tables++;
            streamed += one ? 1 : 0;
            corrupt += diagnosis.IsHealthy ? 0 : 1;
            keyed += one && used > 100 ? 1 : 0;
        }
        Assert.That(tables, Is.GreaterThan(20), "the DictShapes dump holds the runtime's tables and the sample's");
        Assert.That(corrupt, Is.GreaterThan(5), "the sample's corrupt tables are among them");
        Assert.That(streamed, Is.GreaterThan(10));
        Assert.That(keyed, Is.GreaterThan(0), "some proven table is big enough for the equal-hash filter to have work");
    }

    [Test]
    public void A_shape_whose_fields_lie_outside_the_entry_is_not_streamed()
    {
        // The shape's offsets come from the target's own metadata: the stream reads them in place without bounds checks
        // per entry, so a next or hashCode past the entry's end must leave the table to the image, never be read.
        using Target target = TargetOpener.OpenDump(HeapTestDump.Path);
        ClrHeap heap = target.Runtime!.Heap;
        var (table, shape, header) = DumpTables.Shaped(target)
            .Select(t => (t.Table, t.Shape, Header: HashTableReader.ReadHeader(target, t.Table.Address, t.Shape, heap).Header))
            .First(t => t.Header is not null && HashTableStream.ProvenHealthy(target, t.Header, t.Shape, heap, parts: 1));
        string name = $"{table.Type!.Name} at 0x{table.Address:x}";
        foreach (HashTableShape bad in new[] { shape with { NextOffset = shape.EntrySize - 3 }, shape with { HashCodeOffset = -1 }, shape with { EntrySize = 2 } })
        {
            Assert.That(RawEntryFields.Fits(bad), Is.False, name);
            Assert.That(HashTableStream.ProvenHealthy(target, header!, bad, heap, parts: 1), Is.False, name);
        }
        Assert.That(RawEntryFields.Fits(shape), Is.True, name);
    }
}
