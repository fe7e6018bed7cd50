using System.Reflection.Metadata;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// A second match fails: "if (found != null) throw ...; found = c;" (an attribute that may appear once), "return null"
/// instead of the throw, the same through an out argument, or an ambiguity check a few lines on that throws when a later
/// constructor also fits. Where the holder of the kept constructor is tested non-null and that side of the test fails
/// before the loop goes round again, the constructor kept is the only match, whatever the order. So it is where a tie
/// flag raised in the loop is thrown on after it (<see cref="AddTieFlagHolders"/>).
/// </summary>
internal sealed partial class CtorFlowAnalysis
{
    /// <summary>How many instructions the search for the failing path looks at, from one test.</summary>
    private const int FailSearchBudget = 512;

    private HashSet<(bool IsArgument, int Index)>? _guardedHolders;

    /// <summary>Whether the local (or out argument) <paramref name="index"/> holds a kept constructor that a second match would fail on.</summary>
    private bool GuardedHolder(bool isArgument, int index) => (_guardedHolders ??= FindGuardedHolders()).Contains((isArgument, index));

    private HashSet<(bool, int)> FindGuardedHolders()
    {
        var result = new HashSet<(bool, int)>();
        for (int i = 0; i + 1 < _code.Length; i++)
        {
            (bool IsArgument, int Index) holder;
            int at;
            if (LoadedLocal(_code[i]) is int local)
                (holder, at) = ((false, local), i + 1);
            else if (LoadedArgument(_code[i]) is int arg && _code[i + 1].OpCode == ILOpCode.Ldind_ref)
                (holder, at) = ((true, arg), i + 2);
            else
                continue;
            // "holder != null" is "ldnull; cgt.un" (true when set) in some compilers' output, "== null" is "ldnull; ceq";
            // on ConstructorInfo the C# compiler calls its op_Inequality / op_Equality.
            bool trueWhenSet = true;
            if (at + 2 < _code.Length && _code[at].OpCode == ILOpCode.Ldnull && NullTest(_code[at + 1]) is bool setWhenTrue)
                (trueWhenSet, at) = (setWhenTrue, at + 2);
            if (at >= _code.Length || _code[at].OpCode is not (ILOpCode.Brtrue or ILOpCode.Brtrue_s or ILOpCode.Brfalse or ILOpCode.Brfalse_s))
                continue;
            IlInstruction branch = _code[at];
            bool jumpsWhenSet = branch.OpCode is ILOpCode.Brtrue or ILOpCode.Brtrue_s == trueWhenSet;
            if (InnermostLoopEnd(branch.Offset) is not int loopEnd)
                continue;
            int setSide = jumpsWhenSet ? IndexAt(branch.IntOperand) : at + 1;
            if (FailsBefore(setSide, branch.Offset, loopEnd))
                result.Add(holder);
        }
        foreach ((int head, int end) in _backEdges)
            AddTieFlagHolders(head, end, result);
        return result;
    }

    /// <summary>
    /// A tie flag: a local the loop sets to 1 (a tie) and back to 0 (a new best), whose set side fails after the loop
    /// ("if (tie) throw"). What the loop stores and the code after it reads (the best kept) is then the only best
    /// wherever the method goes on. A flag the loop never lowers is some other error, no tie check, and proves nothing.
    /// </summary>
    private void AddTieFlagHolders(int head, int end, HashSet<(bool, int)> result)
    {
        var raised = new HashSet<int>();
        var lowered = new HashSet<int>();
        var stored = new HashSet<int>();
        for (int i = Math.Max(1, _indexOf.GetValueOrDefault(head)); i < _code.Length && _code[i].Offset <= end; i++)
        {
            if (_code[i].Offset < head || StoredLocal(_code[i]) is not int local)
                continue;
            switch (_code[i - 1].OpCode)
            {
                case ILOpCode.Ldc_i4_1: raised.Add(local); break;
                case ILOpCode.Ldc_i4_0: lowered.Add(local); break;
                default: stored.Add(local); break;
            }
        }
        raised.IntersectWith(lowered);
        if (raised.Count == 0)
            return;
        int after = _indexOf.TryGetValue(end, out int e) ? e + 1 : _code.Length;
        bool checkedAfter = false;
        var readAfter = new HashSet<int>();
        for (int i = after; i < _code.Length && i < after + FailSearchBudget; i++) // the check and the read follow the loop closely
        {
            if (LoadedLocal(_code[i]) is not int local)
                continue;
            readAfter.Add(local);
            if (!raised.Contains(local) || i + 1 >= _code.Length || _code[i + 1].OpCode is not (ILOpCode.Brtrue or ILOpCode.Brtrue_s or ILOpCode.Brfalse or ILOpCode.Brfalse_s))
                continue;
            IlInstruction branch = _code[i + 1];
            int setSide = branch.OpCode is ILOpCode.Brtrue or ILOpCode.Brtrue_s ? IndexAt(branch.IntOperand) : i + 2;
            checkedAfter |= FailsBefore(setSide, branch.Offset, int.MaxValue);
        }
        if (checkedAfter)
            foreach (int holder in stored.Where(readAfter.Contains).Except(raised))
                result.Add((false, holder));
    }

    /// <summary>The offset of the backward branch closing the innermost loop around <paramref name="offset"/>.</summary>
    private int? InnermostLoopEnd(int offset)
    {
        int? end = null;
        int span = int.MaxValue;
        foreach ((int from, int to) in _backEdges)
        {
            if (from <= offset && offset <= to && to - from < span)
                (end, span) = (to, to - from);
        }
        return end;
    }

    /// <summary>
    /// Whether the code from index <paramref name="start"/> reaches a throw (or "return null") while it stays between the
    /// test at <paramref name="low"/> and the loop's end <paramref name="high"/>: the branch back to the loop's head, and
    /// the code after the loop, are not followed.
    /// </summary>
    private bool FailsBefore(int start, int low, int high)
    {
        var seen = new HashSet<int>();
        var work = new Stack<int>();
        work.Push(start);
        int budget = FailSearchBudget;
        while (work.Count > 0 && --budget > 0)
        {
            int i = work.Pop();
            if (i >= _code.Length || !seen.Add(i) || _code[i].Offset <= low || _code[i].Offset > high)
                continue;
            IlInstruction ins = _code[i];
            if (ins.OpCode == ILOpCode.Throw || ins.OpCode == ILOpCode.Ldnull && i + 1 < _code.Length && _code[i + 1].OpCode == ILOpCode.Ret)
                return true;
            if (ins.OpCode is ILOpCode.Ret or ILOpCode.Rethrow or ILOpCode.Endfinally or ILOpCode.Endfilter or ILOpCode.Jmp)
                continue;
            foreach (int target in ins.SwitchTargets ?? (ins.IsBranch ? [ins.IntOperand] : []))
                if (_indexOf.TryGetValue(target, out int t))
                    work.Push(t);
            if (ins.OpCode is not (ILOpCode.Br or ILOpCode.Br_s or ILOpCode.Leave or ILOpCode.Leave_s))
                work.Push(i + 1);
        }
        return false;
    }

    private readonly Dictionary<int, bool> _onlyThrows = [];

    /// <summary>
    /// Whether every path from the instruction at <paramref name="offset"/> ends in a throw, without returning, looping or
    /// leaving a protected region first: what is picked there only goes into the exception ("ConstructorConflict(list[0],
    /// list[1])" after "if (list.Count &gt; 1)"), which no caller acts on by position. Unknown (too far) counts as no.
    /// </summary>
    private bool OnlyThrowsAfter(int offset)
    {
        if (_onlyThrows.TryGetValue(offset, out bool known))
            return known;
        bool result = _indexOf.TryGetValue(offset, out int start) && EveryPathThrows(start);
        _onlyThrows[offset] = result;
        return result;
    }

    private bool EveryPathThrows(int start)
    {
        var seen = new HashSet<int>();
        var work = new Stack<int>();
        work.Push(start);
        int budget = FailSearchBudget;
        while (work.Count > 0)
        {
            int i = work.Pop();
            if (--budget < 0 || i >= _code.Length)
                return false;
            if (!seen.Add(i))
                continue;
            IlInstruction ins = _code[i];
            if (ins.OpCode == ILOpCode.Throw)
                continue;
            if (ins.OpCode is ILOpCode.Ret or ILOpCode.Rethrow or ILOpCode.Endfinally or ILOpCode.Endfilter or ILOpCode.Jmp or ILOpCode.Leave or ILOpCode.Leave_s)
                return false;
            foreach (int target in ins.SwitchTargets ?? (ins.IsBranch ? [ins.IntOperand] : []))
            {
                if (target <= ins.Offset || !_indexOf.TryGetValue(target, out int t))
                    return false; // a loop: the value may be used again
                work.Push(t);
            }
            if (ins.OpCode is not (ILOpCode.Br or ILOpCode.Br_s))
                work.Push(i + 1);
        }
        return true;
    }

    /// <summary>For "x OP null": true when the test holds for a set x (!=), false when it holds for null (==), null for any other instruction.</summary>
    private bool? NullTest(IlInstruction ins) => ins.OpCode switch
    {
        ILOpCode.Cgt_un => true,
        ILOpCode.Ceq => false,
        ILOpCode.Call when _calls.Resolve(ins.Token).Method is { Name: "op_Inequality" or "op_Equality" } op => op.Name == "op_Inequality",
        _ => null,
    };

    private static int? LoadedArgument(IlInstruction ins) => ins.OpCode switch
    {
        ILOpCode.Ldarg_0 or ILOpCode.Ldarg_1 or ILOpCode.Ldarg_2 or ILOpCode.Ldarg_3 => ins.OpCode - ILOpCode.Ldarg_0,
        ILOpCode.Ldarg or ILOpCode.Ldarg_s => ins.IntOperand,
        _ => null,
    };
}
