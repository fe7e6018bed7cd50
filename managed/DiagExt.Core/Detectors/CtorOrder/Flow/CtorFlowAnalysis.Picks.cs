using System.Reflection.Metadata;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>After the fixpoint: the instructions that take a constructor by position.</summary>
internal sealed partial class CtorFlowAnalysis
{
    private IReadOnlyList<CtorPick> CollectPicks()
    {
        // Keyed by the picking instruction: a loop's element returned on two paths is one pick.
        var picks = new Dictionary<int, CtorPick>();
        for (int i = 0; i < _code.Length; i++)
        {
            if (_in[i] is not { } state)
                continue;
            IlInstruction ins = _code[i];
            if ((Pick(ins, state) ?? HelperPick(ins, state) ?? LoopReturn(ins, state) ?? EscapedExit(ins, state) ?? FirstUsed(ins, state) ?? GeneratedReturn(ins, state) ?? CarriedPosition(ins, state)) is { } pick)
                picks.TryAdd(pick.PickOffset, pick);
        }
        return picks.Values.OrderBy(p => p.PickOffset).ToList();
    }

    /// <summary>
    /// "foreach (c in list) if (...) return c;" or "if (found == null && ...) found = c;": the first (or last) constructor
    /// that matches wins, so the list's order decides whenever two match. Seen at the ret, or at the leave/br to a "ldloc; ret" the compiler puts after a try.
    /// </summary>
    private CtorPick? LoopReturn(IlInstruction ins, FlowState state)
    {
        FlowValue? returned = ins.OpCode switch
        {
            ILOpCode.Ret when state.Stack.Length == 1 => state.Stack[0],
            ILOpCode.Leave or ILOpCode.Leave_s or ILOpCode.Br or ILOpCode.Br_s when ReturnedLocal(ins.IntOperand) is int local && local < state.Locals.Length => state.Locals[local],
            _ => null,
        };
        bool returns = ins.OpCode is ILOpCode.Ret || returned is not null;
        CtorElement? element = (returned is null ? null : FlowValue.ChosenOf(returned)) ?? (returns ? Out(state) : null);
        if (element is null || element.Unique || !InLoop(element.Offset) || CountedAtMostOnce(element, state))
            return null;
        bool itself = returned is not null && FlowValue.ElementOf(returned) is not null;
        return Judge(element.Offset, state, element.List, itself
            ? " (loop: the constructor it matched is returned)"
            : " (loop: what it made from the constructor it matched is returned)", predicate: null);
    }

    /// <summary>
    /// A loop that writes "return new C(...)" into an expression tree for each constructor in list order (Grace's dynamic
    /// constructor chain: Expression.Return(label, Expression.New(c, args)), guarded or not): the generated code returns
    /// at the first one whose guard passes, so the list's order picks, only later, when the delegate runs.
    /// </summary>
    private CtorPick? GeneratedReturn(IlInstruction ins, FlowState state)
    {
        if (ins.OpCode != ILOpCode.Call || _calls.Resolve(ins.Token).Method is not { Name: "Return", DeclaringType: "System.Linq.Expressions.Expression" } method)
            return null;
        for (int depth = 0; depth < Math.Min(state.Stack.Length, method.ParameterCount); depth++)
        {
            if (Peek(state.Stack, depth) is GeneratedNewValue { Element: { Unique: false } element } && InLoop(element.Offset))
                return Judge(element.Offset, state, element.List, " (loop: the generated code returns the first constructor it can build)", predicate: null);
        }
        return null;
    }

    /// <summary>
    /// "if (e.MoveNext()) c = e.Current;" outside any loop is FirstOrDefault() written by hand (MessagePack's do/while
    /// over the rest then keeps the first that fits). It picks where c is used (returned, stored, called on or passed),
    /// judged there: Newtonsoft's "if (!e.MoveNext()) return c;" has proven by then that the list held one.
    /// </summary>
    private CtorPick? FirstUsed(IlInstruction ins, FlowState state)
    {
        int consumed = ins.OpCode switch
        {
            ILOpCode.Ret or ILOpCode.Stsfld or ILOpCode.Stfld or ILOpCode.Stelem_ref or ILOpCode.Stelem => Math.Min(1, state.Stack.Length),
            ILOpCode.Call or ILOpCode.Callvirt or ILOpCode.Newobj => _calls.Resolve(ins.Token).Method is { } m
                ? Math.Min(state.Stack.Length, m.ParameterCount + (m.HasThis && ins.OpCode != ILOpCode.Newobj ? 1 : 0))
                : 0,
            _ => 0,
        };
        for (int depth = 0; depth < consumed; depth++)
        {
            if (FlowValue.ElementOf(Peek(state.Stack, depth)) is { First: true } first
                && Judge(first.Offset, state, first.List, ".GetEnumerator().Current (the first)", predicate: null) is { } pick)
                return pick;
        }
        return null;
    }

    /// <summary>A loop's element (or what was made from it) the method hands back through an out argument on this path.</summary>
    private static CtorElement? Out(FlowState state) => state.Outs.Select(FlowValue.ChosenOf).FirstOrDefault(e => e is not null);

    /// <summary>The local that the code at <paramref name="target"/> returns at once ("ldloc k; ret"), if it does.</summary>
    private int? ReturnedLocal(int target) =>
        _indexOf.TryGetValue(target, out int i) && i + 1 < _code.Length && _code[i + 1].OpCode == ILOpCode.Ret ? LoadedLocal(_code[i]) : null;

    private CtorPick? Pick(IlInstruction ins, FlowState state)
    {
        FlowValue[] stack = state.Stack;
        if (IsElementLoad(ins.OpCode) && stack.Length >= 2 && Peek(stack, 1) is CtorList array && Peek(stack, 0) is IntValue index)
            return Judge(ins.Offset, state, array, $"[{index.Value}]", predicate: null);
        if (ins.OpCode is not (ILOpCode.Call or ILOpCode.Callvirt))
            return null;
        (MethodReference? method, KnownCallKind kind) = _calls.Resolve(ins.Token);
        if (method is null || kind is not (KnownCallKind.PickEnd or KnownCallKind.ElementAt or KnownCallKind.IndexGet or KnownCallKind.PickBy))
            return null;
        int argCount = method.ParameterCount + (method.HasThis ? 1 : 0);
        if (stack.Length < argCount || argCount == 0)
            return null;
        FlowValue source = Peek(stack, argCount - 1);
        if (source is not CtorList list)
            return null;
        switch (kind)
        {
            case KnownCallKind.PickBy:
                // MaxBy/MinBy keep the first of equal keys; Aggregate's "a >= b ? a : b" too. A key that reads MetadataToken cannot tie.
                bool unique = Peek(stack, 0) is MethodValue key && _lambdas.KeyIsUnique(key.Method);
                return Judge(ins.Offset, state, list with { Order = new SortKey(method.Name, !unique) }, $".{method.Name}(key)", predicate: null);
            case KnownCallKind.PickEnd:
                FlowValue? predicate = argCount > 1 ? Peek(stack, 0) : null;
                return Judge(ins.Offset, state, list, $".{method.Name}({(predicate is null ? "" : "predicate")})", predicate);
            default:
                if (Peek(stack, 0) is not IntValue position)
                    return null; // a loop over the list visits every constructor
                return Judge(ins.Offset, state, list, kind == KnownCallKind.IndexGet ? $"[{position.Value}]" : $".{method.Name}({position.Value})", predicate: null);
        }
    }

    /// <summary>
    /// A hazard unless the length is proven at most one, the sort key is unique, or a predicate (given to the pick
    /// or to a Where() before it: the same thing) matches at most one constructor.
    /// </summary>
    private CtorPick? Judge(int offset, FlowState state, CtorList list, string pick, FlowValue? predicate)
    {
        if (state.RangeOf(list.Site).AtMostOne && _appliedTo.GetValueOrDefault(list.Site) is { Name: { } single, Count: <= 1 })
            _leftByCount.TryAdd(offset, single);
        if (state.RangeOf(list.Site).AtMostOne || !list.OrderMatters || OnlyThrowsAfter(offset))
            return null;
        if (predicate is MethodValue lambda && _lambdas.SelectsAtMostOne(lambda.Method))
            return null;
        if (list.Filter is { } filter && _lambdas.SelectsAtMostOne(filter.Method))
            return null;
        (string? name, EntityHandle handle, int? count, int flags) = _appliedTo.GetValueOrDefault(list.Site);
        // A predicate that asks only for a parameter count ("GetParameters().Length == 5") on a type the code names: count that arity.
        if ((predicate as MethodValue ?? list.Filter) is { } filtering && _lambdas.Arity(filtering.Method) is int arity && !handle.IsNil
            && _counter.Count(handle, flags, arity) is <= 1)
        {
            _leftByCount.TryAdd(offset, $"{name} ({arity} parameters)");
            return null;
        }
        string pattern = WithReceiver(list) + pick + (list.Order is { CanTie: true } order ? $" ({order.TieText})" : "");
        // Proven: the code names the type and it has several matching constructors, so which one comes first is reflection's choice.
        // Not for a list a loop filled: the loop may have added only some of them.
        bool proven = count > 1 && list.Order is null && predicate is null && list.Filter is null && list.CollectedAt is null;
        return new CtorPick(_method, Math.Max(list.Site, -1), offset, pattern, name, handle, list.Order is not null, proven ? count : null, proven ? null : UnknownBecause(list.Site))
        {
            ListSite = list.Site,
            Flags = flags,
        };
    }

    /// <summary>The list's chain with the receiver of its source written in, as the last pass knows it.</summary>
    private string WithReceiver(CtorList list)
    {
        if (!_receivers.TryGetValue(list.Site, out (string Source, string Receiver) r) || r.Receiver.Length == 0)
            return list.Chain;
        int at = list.Chain.IndexOf(r.Source, StringComparison.Ordinal);
        return at < 0 ? list.Chain : list.Chain.Insert(at, r.Receiver);
    }

    private static bool IsElementLoad(ILOpCode op) => op is ILOpCode.Ldelem_ref or ILOpCode.Ldelem or ILOpCode.Ldelema;
}
