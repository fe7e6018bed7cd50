using System.Reflection.Metadata;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// "if (matches) { count++; found = c; } ... if (count != 1) return null; return found;" (protobuf-net's tuple
/// constructor): a counter increased in the straight-line code that keeps the element counts the matches, and where
/// the code has proven it at most one, the kept constructor was the only match, whatever the list's order.
/// </summary>
internal sealed partial class CtorFlowAnalysis
{
    /// <summary>How far from the store of the element an increment still counts as beside it (instructions).</summary>
    private const int CounterWindow = 8;

    private HashSet<int>? _branchTargets;

    private bool CountedAtMostOnce(CtorElement element, FlowState state)
    {
        foreach (int local in CountersBeside(element))
        {
            if (local < state.Locals.Length && state.Locals[local] is CounterValue counter && state.RangeOf(counter.Site).AtMostOne)
                return true;
        }
        return false;
    }

    /// <summary>The locals incremented ("ldloc k; ldc.i4.1; add; stloc k") without a branch between them and a store of the element.</summary>
    private IEnumerable<int> CountersBeside(CtorElement element)
    {
        for (int i = 0; i < _code.Length; i++)
        {
            if (StoredLocal(_code[i]) is null || _in[i] is not { Stack.Length: > 0 } state
                || FlowValue.ElementOf(state.Stack[^1]) is not { } stored || stored.Offset != element.Offset)
                continue;
            for (int j = Math.Max(0, i - CounterWindow); j <= Math.Min(_code.Length - 4, i + CounterWindow); j++)
            {
                if (Increment(j) is int local && StraightLine(Math.Min(i, j), Math.Max(i, j + 3)))
                    yield return local;
            }
        }
    }

    /// <summary>The local k when the code at <paramref name="index"/> is "ldloc k; ldc.i4.1; add; stloc k".</summary>
    private int? Increment(int index) =>
        LoadedLocal(_code[index]) is int k && _code[index + 1].OpCode == ILOpCode.Ldc_i4_1 && _code[index + 2].OpCode == ILOpCode.Add
        && StoredLocal(_code[index + 3]) == k ? k : null;

    /// <summary>Whether control runs from <paramref name="from"/> to <paramref name="to"/> (indices) with no branch out and none in.</summary>
    private bool StraightLine(int from, int to)
    {
        _branchTargets ??= _code.SelectMany(c => c.SwitchTargets ?? (c.IsBranch ? [c.IntOperand] : [])).ToHashSet();
        for (int i = from; i < to; i++)
        {
            if (_code[i].IsBranch || _code[i].OpCode is ILOpCode.Switch or ILOpCode.Ret or ILOpCode.Throw || _branchTargets.Contains(_code[i + 1].Offset))
                return false;
        }
        return true;
    }

    private static int? LoadedLocal(IlInstruction ins) => ins.OpCode switch
    {
        ILOpCode.Ldloc_0 or ILOpCode.Ldloc_1 or ILOpCode.Ldloc_2 or ILOpCode.Ldloc_3 => ins.OpCode - ILOpCode.Ldloc_0,
        ILOpCode.Ldloc or ILOpCode.Ldloc_s => ins.IntOperand,
        _ => null,
    };

    private static int? StoredLocal(IlInstruction ins) => ins.OpCode switch
    {
        ILOpCode.Stloc_0 or ILOpCode.Stloc_1 or ILOpCode.Stloc_2 or ILOpCode.Stloc_3 => ins.OpCode - ILOpCode.Stloc_0,
        ILOpCode.Stloc or ILOpCode.Stloc_s => ins.IntOperand,
        _ => null,
    };
}
