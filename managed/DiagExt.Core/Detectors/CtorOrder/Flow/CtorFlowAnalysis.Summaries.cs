using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// The interprocedural side of one method's analysis: what it hands back to its callers (returned, yielded by an
/// iterator, cached in a field it reads), the helpers it calls that pick by position, and a loop's element that escapes
/// into something outside the loop before the loop is left early.
/// </summary>
internal sealed partial class CtorFlowAnalysis
{
    /// <summary>The field an iterator's MoveNext stores each yielded value in.</summary>
    private const string IteratorCurrent = "<>2__current";

    /// <summary>
    /// The constructor list this method hands back: what its "ret" returns, or for an iterator's MoveNext what it stores
    /// in &lt;&gt;2__current (its elements, or what it made from them). Only lists it made itself; one from a parameter is
    /// the caller's own.
    /// </summary>
    private MethodSummaries.ReturnedList? HandedBack()
    {
        CtorList? found = null;
        for (int i = 0; i < _code.Length; i++)
        {
            if (_in[i] is not { } state || state.Stack.Length == 0)
                continue;
            IlInstruction ins = _code[i];
            CtorList? list = ins.OpCode switch
            {
                ILOpCode.Ret when state.Stack.Length == 1 => state.Stack[0] as CtorList,
                ILOpCode.Stfld when FieldName(ins.Token) == IteratorCurrent => state.Stack[^1] as CtorList ?? FlowValue.ChosenOf(state.Stack[^1])?.List,
                _ => null,
            };
            if (list is { Site: >= 0 })
                found = found is null ? list : found.Site == list.Site ? found.JoinWith(list) : found.Order is { CanTie: true } || found.Order is null ? found : list;
        }
        if (found is null)
            return null;
        string chain = IsIteratorBody() ? $"{WithReceiver(found)} (yielded)" : WithReceiver(found);
        return new MethodSummaries.ReturnedList(found.IsIndexable, found.Order, chain);
    }

    /// <summary>An iterator's MoveNext: the method is MoveNext of a type that has the &lt;&gt;2__current field.</summary>
    private bool IsIteratorBody()
    {
        MethodDefinition def = _md.GetMethodDefinition(_method);
        return _md.StringComparer.Equals(def.Name, "MoveNext")
            && _md.GetTypeDefinition(def.GetDeclaringType()).GetFields().Any(f => _md.StringComparer.Equals(_md.GetFieldDefinition(f).Name, IteratorCurrent));
    }

    /// <summary>
    /// Constructor lists (and enumerators over them) this method stores in fields it also reads, joined per field: a cache
    /// it fills and reads back, or an iterator's or async method's hoisted locals, which it reads again when resumed
    /// (as ILLink's dataflow does, such fields are taken flow-insensitively: whatever any path stored).
    /// </summary>
    private Dictionary<int, FlowValue> StoredFields()
    {
        var loaded = new HashSet<int>(_code.Where(c => c.OpCode is ILOpCode.Ldfld or ILOpCode.Ldsfld).Select(c => c.Token));
        var stored = new Dictionary<int, FlowValue>();
        for (int i = 0; i < _code.Length; i++)
        {
            IlInstruction ins = _code[i];
            if (ins.OpCode is not (ILOpCode.Stfld or ILOpCode.Stsfld) || !loaded.Contains(ins.Token) || _in[i] is not { Stack.Length: > 0 } state)
                continue;
            if (state.Stack[^1] is CtorList { Site: >= 0 } or CtorEnumerator { List.Site: >= 0 })
                stored[ins.Token] = stored.TryGetValue(ins.Token, out FlowValue? before) ? FlowValue.Join(before, state.Stack[^1]) : state.Stack[^1];
        }
        return stored.Where(f => f.Value is CtorList or CtorEnumerator).ToDictionary();
    }

    private string? FieldName(int token)
    {
        try
        {
            EntityHandle handle = MetadataTokens.EntityHandle(token);
            return handle.Kind switch
            {
                HandleKind.FieldDefinition => _md.GetString(_md.GetFieldDefinition((FieldDefinitionHandle)handle).Name),
                HandleKind.MemberReference => _md.GetString(_md.GetMemberReference((MemberReferenceHandle)handle).Name),
                _ => null,
            };
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            return null;
        }
    }

    /// <summary>A list a method of this assembly hands back (a wrapper, an iterator, a cached copy), in the order it made.</summary>
    private CtorList? SummarizedList(int token, int offset)
    {
        if (LocalMethods.Resolve(_md, token) is not { } callee || _summaries.Returns(callee) is not { } returned)
            return null;
        return new CtorList(offset, returned.IsIndexable, returned.Order, $"{MetadataNames.Short(MetadataNames.TypeName(_md, _md.GetMethodDefinition(callee).GetDeclaringType()))}.{_md.GetString(_md.GetMethodDefinition(callee).Name)}() [{returned.Chain}]");
    }

    /// <summary>A call handing a constructor list to a helper of this assembly that takes one of its elements by position.</summary>
    private CtorPick? HelperPick(IlInstruction ins, FlowState state)
    {
        if (ins.OpCode is not (ILOpCode.Call or ILOpCode.Callvirt) || _calls.Resolve(ins.Token).Method is not { } method || method.ParameterCount == 0)
            return null;
        int argCount = method.ParameterCount + (method.HasThis ? 1 : 0);
        if (state.Stack.Length < argCount)
            return null;
        bool anyList = false;
        for (int j = 0; j < argCount && !anyList; j++)
            anyList = Peek(state.Stack, j) is CtorList;
        if (!anyList || LocalMethods.Resolve(_md, ins.Token) is not { } helper || _summaries.PicksFrom(helper) is not int k || k >= argCount
            || Peek(state.Stack, argCount - 1 - k) is not CtorList list || TakesConstructors(helper, k))
            return null;
        FlowValue? predicate = null;
        for (int j = 0; j < argCount; j++)
            if (Peek(state.Stack, j) is MethodValue lambda)
                predicate = lambda;
        return Judge(ins.Offset, state, list, $".{method.Name}({(predicate is null ? "" : "predicate")})", predicate);
    }

    /// <summary>
    /// Whether the helper's argument <paramref name="arg"/> is declared to hold constructors: such a helper is analysed, and
    /// reported, as a site of its own (picking from what its caller passed), so its callers are not reported again.
    /// </summary>
    private bool TakesConstructors(MethodDefinitionHandle helper, int arg)
    {
        MethodDefinition def = _md.GetMethodDefinition(helper);
        int first = (def.Attributes & System.Reflection.MethodAttributes.Static) == 0 ? 1 : 0;
        var types = Signatures.Method(_md, def).ParameterTypes;
        return arg >= first && arg - first < types.Length && CtorCollectionTypes.Holds(types[arg - first]);
    }

    /// <summary>
    /// A loop's element (or what was made from it) handed to another object (a call on it, a field, an array) and then
    /// the loop left early (break, return, leave): whatever that object now holds is the first that got there.
    /// </summary>
    private CtorPick? EscapedExit(IlInstruction ins, FlowState state)
    {
        if (!state.Fields.TryGetValue(FlowState.EscapeKey, out FlowValue? escaped) || FlowValue.ChosenOf(escaped) is not { Unique: false } element
            || InnermostLoop(element.Offset) is not (int from, int to) || ins.Offset < from || ins.Offset > to)
            return null;
        bool leaves = ins.OpCode switch
        {
            ILOpCode.Ret => true,
            _ when ins.IsBranch => (ins.IntOperand < from || ins.IntOperand > to) && !NearLoopHead(ins.Offset, from),
            _ => false,
        };
        return leaves && !CountedAtMostOnce(element, state)
            ? Judge(element.Offset, state, element.List, " (loop: left once the constructor it matched was handed on)", predicate: null)
            : null;
    }

    /// <summary>A test at the top of a loop (a compiler that puts the condition first): its exit is the loop's normal end.</summary>
    private bool NearLoopHead(int offset, int head) =>
        _indexOf.TryGetValue(head, out int h) && _indexOf.TryGetValue(offset, out int i) && i - h <= 4;

    /// <summary>The innermost loop (head offset, offset of its backward branch) around <paramref name="offset"/>.</summary>
    private (int From, int To)? InnermostLoop(int offset)
    {
        (int, int)? best = null;
        int span = int.MaxValue;
        foreach ((int from, int to) in _backEdges)
        {
            if (from <= offset && offset <= to && to - from < span)
                (best, span) = ((from, to), to - from);
        }
        return best;
    }

    /// <summary>The state after a loop's element escapes into something not made from it (another object's method, a field, an array).</summary>
    private static FlowState Escaping(FlowState state, CtorElement element) =>
        state.WithField(FlowState.EscapeKey, new DerivedValue(element), state.Stack);
}
