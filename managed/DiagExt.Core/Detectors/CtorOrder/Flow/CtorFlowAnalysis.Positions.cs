using System.Reflection.Metadata;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// A position carried from one type's constructor list to another's: "for (i = 0; i &lt; a.Count(); i++) if (Marked(a.ElementAt(i)))
/// found = b.ElementAt(i);" with a and b the lists of two different types (a generic definition and its constructed
/// type, System.Composition's GetConstructorInfoFromGenericType). Each list keeps its own order, which reflection does
/// not promise to share (a type whose constructors were materialised already keeps them first), so the second read
/// takes whichever constructor sits where the first one was found.
/// </summary>
internal sealed partial class CtorFlowAnalysis
{
    /// <summary>Per list site: the type value it was asked of (a test that two lists are of different types).</summary>
    private readonly Dictionary<int, FlowValue> _askedOf = [];

    /// <summary>Per counter: each list it indexes (site, offset of the read), found after the fixpoint.</summary>
    private Dictionary<int, List<(int Site, int Offset)>>? _indexedBy;

    /// <summary>The read at <paramref name="ins"/> of a list at a counter's position that an earlier read found in another type's list.</summary>
    private CtorPick? CarriedPosition(IlInstruction ins, FlowState state)
    {
        if (IndexedRead(ins, state) is not (CtorList list, CounterValue counter))
            return null;
        _indexedBy ??= FindIndexedReads();
        if (!_indexedBy.TryGetValue(counter.Site, out var reads) || !_askedOf.TryGetValue(list.Site, out FlowValue? mine))
            return null;
        foreach ((int site, int offset) in reads)
        {
            if (offset < ins.Offset && site != list.Site && _askedOf.TryGetValue(site, out FlowValue? other) && !other.Equals(mine))
                return Judge(ins.Offset, state, list, "[i] (i: the position found in another type's list)", predicate: null);
        }
        return null;
    }

    private Dictionary<int, List<(int, int)>> FindIndexedReads()
    {
        var reads = new Dictionary<int, List<(int, int)>>();
        for (int i = 0; i < _code.Length; i++)
        {
            if (_in[i] is { } state && IndexedRead(_code[i], state) is (CtorList list, CounterValue counter))
            {
                if (!reads.TryGetValue(counter.Site, out var ofCounter))
                    reads[counter.Site] = ofCounter = [];
                ofCounter.Add((list.Site, _code[i].Offset));
            }
        }
        return reads;
    }

    /// <summary>"list[i]", "list.ElementAt(i)" or an array's element at a counter's value: the list and the counter.</summary>
    private (CtorList, CounterValue)? IndexedRead(IlInstruction ins, FlowState state)
    {
        FlowValue[] stack = state.Stack;
        if (stack.Length < 2 || Peek(stack, 0) is not CounterValue counter || Peek(stack, 1) is not CtorList list)
            return null;
        if (IsElementLoad(ins.OpCode))
            return (list, counter);
        if (ins.OpCode is ILOpCode.Call or ILOpCode.Callvirt && _calls.Resolve(ins.Token) is ({ } method, KnownCallKind.ElementAt or KnownCallKind.IndexGet)
            && method.ParameterCount + (method.HasThis ? 1 : 0) == 2)
            return (list, counter);
        return null;
    }
}
