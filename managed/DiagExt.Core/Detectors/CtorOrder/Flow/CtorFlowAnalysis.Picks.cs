using System.Reflection.Metadata;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>After the fixpoint: the instructions that take a constructor by position.</summary>
internal sealed partial class CtorFlowAnalysis
{
    private IReadOnlyList<CtorPick> CollectPicks()
    {
        var picks = new List<CtorPick>();
        for (int i = 0; i < _code.Length; i++)
        {
            if (_in[i] is not { } state)
                continue;
            IlInstruction ins = _code[i];
            if (Pick(ins, state) is { } pick)
                picks.Add(pick);
        }
        return picks;
    }

    private CtorPick? Pick(IlInstruction ins, FlowState state)
    {
        FlowValue[] stack = state.Stack;
        if (IsElementLoad(ins.OpCode) && stack.Length >= 2 && Peek(stack, 1) is CtorList array && Peek(stack, 0) is IntValue index)
            return Judge(ins, state, array, $"[{index.Value}]", predicate: null);
        if (ins.OpCode is not (ILOpCode.Call or ILOpCode.Callvirt))
            return null;
        (MethodReference? method, KnownCallKind kind) = _calls.Resolve(ins.Token);
        if (method is null || kind is not (KnownCallKind.PickEnd or KnownCallKind.ElementAt or KnownCallKind.IndexGet))
            return null;
        int argCount = method.ParameterCount + (method.HasThis ? 1 : 0);
        if (stack.Length < argCount || argCount == 0)
            return null;
        FlowValue source = Peek(stack, argCount - 1);
        if (source is not CtorList list)
            return null;
        switch (kind)
        {
            case KnownCallKind.PickEnd:
                FlowValue? predicate = argCount > 1 ? Peek(stack, 0) : null;
                return Judge(ins, state, list, $".{method.Name}({(predicate is null ? "" : "predicate")})", predicate);
            default:
                if (Peek(stack, 0) is not IntValue position)
                    return null; // a loop over the list visits every constructor
                return Judge(ins, state, list, kind == KnownCallKind.IndexGet ? $"[{position.Value}]" : $".{method.Name}({position.Value})", predicate: null);
        }
    }

    /// <summary>A hazard unless the length is proven at most one, the sort key is unique, or a predicate picks by signature.</summary>
    private CtorPick? Judge(IlInstruction ins, FlowState state, CtorList list, string pick, FlowValue? predicate)
    {
        if (state.RangeOf(list.Site).AtMostOne || !list.OrderMatters)
            return null;
        if (predicate is not null && list.Order is null && predicate is MethodValue lambda && _lambdas.PicksBySignature(lambda.Method))
            return null;
        string pattern = list.Chain + pick + (list.Order is { CanTie: true } ? " (sort key can tie: equal keys keep reflection's order)" : "");
        (string? name, EntityHandle handle) = _appliedTo.GetValueOrDefault(list.Site);
        return new CtorPick(_method, list.Site, ins.Offset, pattern, name, handle, list.Order is not null);
    }

    private static bool IsElementLoad(ILOpCode op) => op is ILOpCode.Ldelem_ref or ILOpCode.Ldelem or ILOpCode.Ldelema;
}
