using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>The transfer function: the state after one instruction, for each successor.</summary>
internal sealed partial class CtorFlowAnalysis
{
    private IEnumerable<(int Target, FlowState State)> Step(IlInstruction ins, int index, FlowState state)
    {
        FlowValue[] stack = state.Stack;
        ILOpCode op = ins.OpCode;
        int next = index + 1;

        switch (op)
        {
            case ILOpCode.Ret or ILOpCode.Throw or ILOpCode.Rethrow or ILOpCode.Endfinally or ILOpCode.Endfilter or ILOpCode.Jmp:
                yield break;
            case ILOpCode.Leave or ILOpCode.Leave_s:
                yield return (IndexAt(ins.IntOperand), state.WithStack([]));
                yield break;
            case ILOpCode.Br or ILOpCode.Br_s:
                yield return (IndexAt(ins.IntOperand), state);
                yield break;
            case ILOpCode.Brtrue or ILOpCode.Brtrue_s or ILOpCode.Brfalse or ILOpCode.Brfalse_s:
            {
                FlowValue value = Peek(stack, 0);
                FlowValue[] rest = Pop(stack, 1);
                if ((value as TypeTestValue ?? (value is NullableProbeValue probe ? TypeTestValue.Nullable(probe.Type) : null)) is { } typeTest)
                {
                    foreach (var edge in TypeTestEdges(typeTest, op is ILOpCode.Brtrue or ILOpCode.Brtrue_s, state.WithStack(rest), ins, next))
                        yield return edge;
                    yield break;
                }
                // "Length == 0" holds on the zero edge, a parameter type test on the true edge: there the element is unique.
                (CtorElement? tested, bool uniqueWhenTrue) = value switch
                {
                    ArityTestValue arity when OneOfArity(arity) => (arity.Element, arity.Equal),
                    ParameterCountValue count => (count.Element, false),
                    SignatureTestValue signature => (signature.Element, true),
                    AttributeTestValue attribute => (attribute.Element, attribute.Present),
                    AttributesValue attributes => (attributes.Element, true), // non-null: the attribute is there
                    _ => (null, false),
                };
                if (tested is not null)
                {
                    bool jumpsOnTrue = op is ILOpCode.Brtrue or ILOpCode.Brtrue_s;
                    FlowState unique = MarkUnique(state.WithStack(rest), tested);
                    yield return (IndexAt(ins.IntOperand), jumpsOnTrue == uniqueWhenTrue ? unique : state.WithStack(rest));
                    if (next < _code.Length)
                        yield return (next, jumpsOnTrue == uniqueWhenTrue ? state.WithStack(rest) : unique);
                    yield break;
                }
                ComparisonValue? test = value switch
                {
                    ComparisonValue c => c,
                    LengthValue l => new ComparisonValue(l.Site, CompareOp.Ne, 0),
                    CounterValue c => new ComparisonValue(c.Site, CompareOp.Ne, 0),
                    _ => null,
                };
                bool jumpsWhenTrue = op is ILOpCode.Brtrue or ILOpCode.Brtrue_s;
                if (Refine(state, test, jumpsWhenTrue, rest) is { } taken)
                    yield return (IndexAt(ins.IntOperand), taken);
                if (next < _code.Length && Refine(state, test, !jumpsWhenTrue, rest) is { } fall)
                    yield return (next, fall);
                yield break;
            }
            case ILOpCode.Switch:
            {
                FlowValue value = Peek(stack, 0);
                FlowValue[] rest = Pop(stack, 1);
                int[] targets = ins.SwitchTargets!;
                int site = value is LengthValue l ? l.Site : -1;
                for (int k = 0; k < targets.Length; k++)
                {
                    FlowState? s = site < 0 ? state.WithStack(rest) : Narrow(state, site, state.RangeOf(site).Refine(CompareOp.Eq, k, true), rest);
                    if (s is not null)
                        yield return (IndexAt(targets[k]), s);
                }
                FlowState? otherwise = site < 0 ? state.WithStack(rest) : Narrow(state, site, state.RangeOf(site).Refine(CompareOp.Ge, targets.Length, true), rest);
                if (otherwise is not null && next < _code.Length)
                    yield return (next, otherwise);
                yield break;
            }
        }

        if (TwoOperandBranch(op) is { } branchOp)
        {
            FlowValue right = Peek(stack, 0), left = Peek(stack, 1);
            FlowValue[] rest = Pop(stack, 2);
            ComparisonValue? test = Compare(left, right, branchOp);
            if (branchOp is CompareOp.Eq or CompareOp.Ne && DefinitionTest(left, right) is { } definitionTest)
            {
                // "if (t.GetGenericTypeDefinition() != typeof(X<>)) ..." as a reference comparison (no op_Equality before netstandard2.0).
                foreach (var edge in TypeTestEdges(definitionTest, branchOp == CompareOp.Eq, state.WithStack(rest), ins, next))
                    yield return edge;
                yield break;
            }
            if (TypedParameter(left, right) is { } p)
            {
                // "if (p[0].ParameterType != typeof(X)) continue;" compiled as a reference comparison (no op_Equality before netstandard2.0).
                FlowState unique = MarkUnique(state.WithStack(rest), p.Element);
                yield return (IndexAt(ins.IntOperand), branchOp == CompareOp.Eq ? unique : state.WithStack(rest));
                if (next < _code.Length)
                    yield return (next, branchOp == CompareOp.Ne ? unique : state.WithStack(rest));
                yield break;
            }
            if (branchOp is CompareOp.Eq or CompareOp.Ne && ArityOf(left, right) is { } arity && OneOfArity(new ArityTestValue(arity.Element, arity.Arity, true)))
            {
                // "if (c.GetParameters().Length != 5) continue;" on a type with one five-parameter constructor.
                FlowState unique = MarkUnique(state.WithStack(rest), arity.Element);
                yield return (IndexAt(ins.IntOperand), branchOp == CompareOp.Eq ? unique : state.WithStack(rest));
                if (next < _code.Length)
                    yield return (next, branchOp == CompareOp.Ne ? unique : state.WithStack(rest));
                yield break;
            }
            if (Refine(state, test, true, rest) is { } taken)
                yield return (IndexAt(ins.IntOperand), taken);
            if (next < _code.Length && Refine(state, test, false, rest) is { } fall)
                yield return (next, fall);
            yield break;
        }

        FlowState after = Execute(ins, state);
        if (next < _code.Length)
            yield return (next, after);
    }

    /// <summary>
    /// "if (Nullable.GetUnderlyingType(t) != null)", "if (IsNullable(t))", "if (t.IsAnonymousType())", "if (t.IsGenericType(typeof(X&lt;&gt;)))":
    /// on the edge where the test holds, t is what it proves (in every slot holding it, a closure's field too).
    /// </summary>
    private IEnumerable<(int Target, FlowState State)> TypeTestEdges(TypeTestValue test, bool jumpsOnTrue, FlowState state, IlInstruction ins, int next)
    {
        FlowState proven = state.Replacing(test.Type, test.Proven);
        yield return (IndexAt(ins.IntOperand), jumpsOnTrue == test.WhenTrue ? proven : state);
        if (next < _code.Length)
            yield return (next, jumpsOnTrue == test.WhenTrue ? state : proven);
    }

    /// <summary>The state after a non-branching instruction.</summary>
    private FlowState Execute(IlInstruction ins, FlowState state)
    {
        FlowValue[] stack = state.Stack;
        ILOpCode op = ins.OpCode;
        switch (op)
        {
            case ILOpCode.Ldc_i4_m1 or ILOpCode.Ldc_i4_0 or ILOpCode.Ldc_i4_1 or ILOpCode.Ldc_i4_2 or ILOpCode.Ldc_i4_3
                or ILOpCode.Ldc_i4_4 or ILOpCode.Ldc_i4_5 or ILOpCode.Ldc_i4_6 or ILOpCode.Ldc_i4_7 or ILOpCode.Ldc_i4_8:
                return state.WithStack(Push(stack, new IntValue((int)op - (int)ILOpCode.Ldc_i4_0)));
            case ILOpCode.Ldc_i4 or ILOpCode.Ldc_i4_s:
                return state.WithStack(Push(stack, new IntValue(ins.IntOperand)));
            case ILOpCode.Ldloc_0 or ILOpCode.Ldloc_1 or ILOpCode.Ldloc_2 or ILOpCode.Ldloc_3:
                return state.WithStack(Push(stack, Local(state, op - ILOpCode.Ldloc_0)));
            case ILOpCode.Ldloc or ILOpCode.Ldloc_s:
                return state.WithStack(Push(stack, Local(state, ins.IntOperand)));
            case ILOpCode.Stloc_0 or ILOpCode.Stloc_1 or ILOpCode.Stloc_2 or ILOpCode.Stloc_3:
                return StoreLocal(state, op - ILOpCode.Stloc_0);
            case ILOpCode.Stloc or ILOpCode.Stloc_s:
                return StoreLocal(state, ins.IntOperand);
            case ILOpCode.Ldarg_0 or ILOpCode.Ldarg_1 or ILOpCode.Ldarg_2 or ILOpCode.Ldarg_3:
                return state.WithStack(Push(stack, Arg(state, op - ILOpCode.Ldarg_0)));
            case ILOpCode.Ldarg or ILOpCode.Ldarg_s:
                return state.WithStack(Push(stack, Arg(state, ins.IntOperand)));
            case ILOpCode.Starg or ILOpCode.Starg_s:
                return state.WithArg(ins.IntOperand, Peek(stack, 0), Pop(stack, 1));
            case ILOpCode.Ldloca or ILOpCode.Ldloca_s:
                return state.WithStack(Push(stack, new AddressValue(false, ins.IntOperand)));
            case ILOpCode.Ldarga or ILOpCode.Ldarga_s:
                return state.WithStack(Push(stack, new AddressValue(true, ins.IntOperand)));
            case ILOpCode.Stind_ref or ILOpCode.Stobj:
                return Peek(stack, 1) switch
                {
                    AddressValue { IsArgument: false } local => state.WithLocal(local.Index, Peek(stack, 0), Pop(stack, 2)),
                    AddressValue { IsArgument: true } arg => StoreOut(state, arg.Index),
                    _ => state.WithStack(Pop(stack, 2)),
                };
            case ILOpCode.Ldind_ref or ILOpCode.Ldobj when Peek(stack, 0) is AddressValue address:
                return state.WithStack(Push(Pop(stack, 1), address.IsArgument
                    ? state.Fields.GetValueOrDefault(FlowState.OutKey(address.Index), FlowValue.Unknown)
                    : Local(state, address.Index)));
            case ILOpCode.Isinst or ILOpCode.Castclass when Peek(stack, 0) is CtorList or DerivedValue:
                // "source as IList<T>", "(ConstructorInfo[])list": the same constructors, seen through another type.
                return state;
            case ILOpCode.Isinst or ILOpCode.Castclass:
                return state.WithStack(Push(Pop(stack, 1), CastTo(ins.Token, Peek(stack, 0))));
            case ILOpCode.Dup:
                return state.WithStack(Push(stack, Peek(stack, 0)));
            case ILOpCode.Ldelem_ref or ILOpCode.Ldelem when Peek(stack, 1) is ParametersValue parameters:
                return state.WithStack(Push(Pop(stack, 2), new ParameterOfValue(parameters.Element, false)));
            case ILOpCode.Ldelem_ref or ILOpCode.Ldelem when Peek(stack, 1) is CtorList array:
                // An element, also at a constant index: a loop's first pass sees "i = 0", and a plain Unknown there
                // would absorb the element of the later passes at the join.
                return state.WithStack(Push(Pop(stack, 2), new CtorElement(array, ins.Offset)));
            case ILOpCode.Ldlen:
                return state.WithStack(Push(Pop(stack, 1), Peek(stack, 0) switch
                {
                    AttributesValue attributes => new AttributeTestValue(attributes.Element),
                    CtorList list => new LengthValue(list.Site),
                    ParametersValue parameters => new ParameterCountValue(parameters.Element),
                    _ => FlowValue.Unknown,
                }));
            case ILOpCode.Newarr when SizeChosen(Peek(stack, 0)) is { } element:
                // An array sized from the loop's choice (a slot per parameter of the constructor matched) carries it: what it
                // is handed to, Activator.CreateInstance(type, args) above all, picks a constructor by that count.
                return state.WithStack(Push(Pop(stack, 1), new DerivedValue(element)));
            case ILOpCode.Ceq or ILOpCode.Cgt or ILOpCode.Cgt_un or ILOpCode.Clt or ILOpCode.Clt_un:
                return state.WithStack(Push(Pop(stack, 2), CompareResult(op, Peek(stack, 1), Peek(stack, 0))));
            case ILOpCode.Add when Peek(stack, 0) is IntValue { Value: 1 } && Peek(stack, 1) is IntValue { Value: 0 } or CounterValue:
                return state.WithStack(Push(Pop(stack, 2), Peek(stack, 1) as CounterValue ?? new CounterValue(CounterValue.SiteAt(ins.Offset))));
            case ILOpCode.Ldnull:
                return state.WithStack(Push(stack, NullValue.Instance));
            case ILOpCode.Ldtoken:
                NoteAddressTaken(ins.Token); // a method's handle: an expression tree may call it with anything
                return state.WithStack(Push(stack, TypeToken(ins.Token)));
            case ILOpCode.Ldftn:
                NoteAddressTaken(ins.Token);
                return state.WithStack(Push(stack, LocalMethods.Resolve(_md, ins.Token) is { } target ? new MethodValue(target, false) : FlowValue.Unknown));
            case ILOpCode.Ldvirtftn:
                NoteAddressTaken(ins.Token);
                return state.WithStack(Push(Pop(stack, 1), FlowValue.Unknown));
            case ILOpCode.Ldsfld:
                return state.WithStack(Push(stack, _cachedLambdas.TryGetValue(ins.Token, out MethodDefinitionHandle lambda)
                    ? new MethodValue(lambda, true)
                    : state.Fields.GetValueOrDefault(ins.Token) ?? FieldOfType(ins.Token)));
            case ILOpCode.Stsfld:
                return FlowValue.ChosenOf(Peek(stack, 0)) is { } kept
                    ? Escaping(state.WithField(ins.Token, Peek(stack, 0), Pop(stack, 1)), kept)
                    : state.WithField(ins.Token, Peek(stack, 0), Pop(stack, 1));
            case ILOpCode.Ldfld:
                return state.WithStack(Push(Pop(stack, 1), state.Fields.GetValueOrDefault(ins.Token) ?? FieldOfType(ins.Token)));
            case ILOpCode.Stfld:
            {
                FlowState stored = state.WithField(ins.Token, Peek(stack, 0), Pop(stack, 2));
                if (FlowValue.ChosenOf(Peek(stack, 0)) is not { } element || FlowValue.ChosenOf(Peek(stack, 1)) is not null)
                    return stored;
                // The element stored into a closure's display class: the closure (and a delegate over it) now carries the loop's
                // choice. Stored into any other object, it escapes the iteration.
                return Peek(stack, 1) switch
                {
                    NewObjectValue holder => stored.Replacing(holder, new DerivedValue(element)),
                    // A state machine's or closure's own field: a hoisted local, or the value an iterator yields.
                    ThisValue when InGeneratedType => stored,
                    _ => Escaping(stored, element),
                };
            }
            case ILOpCode.Stelem_ref or ILOpCode.Stelem when FlowValue.ChosenOf(Peek(stack, 0)) is { } element && FlowValue.ChosenOf(Peek(stack, 2)) is null:
                return Escaping(state.WithStack(Pop(stack, 3)), element);
            case ILOpCode.Call or ILOpCode.Callvirt or ILOpCode.Newobj or ILOpCode.Calli:
                return Call(ins, state);
        }
        if (IsConversion(op))
        {
            FlowValue v = Peek(stack, 0);
            return state.WithStack(Push(Pop(stack, 1), v is IntValue or LengthValue or ParameterCountValue ? v : FlowValue.Unknown));
        }
        (int pop, int push) = IlOpcodeInfo.StackEffect(op);
        FlowValue[] result = Pop(stack, pop);
        for (int i = 0; i < push; i++)
            result = Push(result, FlowValue.Unknown);
        return state.WithStack(result);
    }

    /// <summary>The loop element an array's length was taken from: its parameter count, or any value made from it.</summary>
    private static CtorElement? SizeChosen(FlowValue length) => length is ParameterCountValue count ? count.Element : FlowValue.ChosenOf(length);

    /// <summary>
    /// A method whose address (ldftn) or handle (ldtoken, for Expression.Call) is taken can be called with anything: its
    /// callers say nothing.
    /// </summary>
    private void NoteAddressTaken(int token)
    {
        if (_callers.Active && LocalMethods.Resolve(_md, token) is { } method && _callers.Wants(method))
            _callers.Escaped(method);
    }

    private FlowState StoreLocal(FlowState state, int index)
    {
        FlowState kept = Kept(state, false, index);
        return kept.WithLocal(index, Peek(kept.Stack, 0), Pop(kept.Stack, 1));
    }

    /// <summary>"*arg = value" through an out or ref argument: what leaves the method with it.</summary>
    private FlowState StoreOut(FlowState state, int arg)
    {
        FlowState kept = Kept(state, true, arg);
        return kept.WithField(FlowState.OutKey(arg), Peek(kept.Stack, 0), Pop(kept.Stack, 2));
    }

    /// <summary>
    /// A loop's element about to be stored (top of the stack) where a second match would fail (<see cref="GuardedHolder"/>)
    /// is the only match: it, and everything made from it on this path, is marked so.
    /// </summary>
    private FlowState Kept(FlowState state, bool isArgument, int index) =>
        state.Stack.Length > 0 && state.Stack[^1] is CtorElement { Unique: false } element && GuardedHolder(isArgument, index) ? MarkUnique(state, element) : state;

    private FlowValue TypeToken(int token)
    {
        try
        {
            EntityHandle handle = MetadataTokens.EntityHandle(token);
            return handle.Kind is HandleKind.TypeDefinition or HandleKind.TypeReference or HandleKind.TypeSpecification
                ? new TypeValue(MetadataNames.TypeName(_md, handle), handle)
                : FlowValue.Unknown;
        }
        catch (Exception e) when (MalformedMetadata.Is(e) && e is not BadImageFormatException)
        {
            throw new BadImageFormatException($"ldtoken with an invalid token 0x{token:x8}");
        }
    }

    private static FlowValue CompareResult(ILOpCode op, FlowValue left, FlowValue right)
    {
        if ((left as NullableProbeValue ?? right as NullableProbeValue) is { } probe && (left is NullValue || right is NullValue))
            return TypeTestValue.Nullable(probe.Type, op != ILOpCode.Ceq);
        if (op == ILOpCode.Ceq && DefinitionTest(left, right) is { } definitionTest)
            return definitionTest;
        if (op == ILOpCode.Ceq && (left, right) is (TypeTestValue negated, IntValue { Value: 0 }))
            return negated with { WhenTrue = !negated.WhenTrue };
        // "GetCustomAttribute<T>() != null" (cgt.un with null), "== null" (ceq), "attributes.Length > 0".
        if ((left as AttributesValue ?? right as AttributesValue) is { } found && (left is NullValue || right is NullValue))
            return new AttributeTestValue(found.Element, op != ILOpCode.Ceq);
        if ((left, right) is (AttributeTestValue count, IntValue { Value: 0 }))
            return count with { Present = op != ILOpCode.Ceq };
        if (op == ILOpCode.Ceq)
        {
            // "!(test)" and "(test) == true" compile to a ceq with a constant.
            if (left is ComparisonValue c && right is IntValue k)
                return k.Value == 0 ? c.Negated : k.Value == 1 ? c : FlowValue.Unknown;
            if (TypedParameter(left, right) is { } p)
                return new SignatureTestValue(p.Element);
            if (ArityOf(left, right) is { } arity)
                return new ArityTestValue(arity.Element, arity.Arity, Equal: true);
            if (left is ArityTestValue negatedArity && right is IntValue { Value: 0 })
                return negatedArity with { Equal = !negatedArity.Equal };
            return Compare(left, right, CompareOp.Eq) ?? FlowValue.Unknown;
        }
        CompareOp cmp = op is ILOpCode.Cgt or ILOpCode.Cgt_un ? CompareOp.Gt : CompareOp.Lt;
        return Compare(left, right, cmp) ?? FlowValue.Unknown;
    }

    /// <summary>"left op right" as a test on a length or a counter, when the other side is a constant.</summary>
    private static ComparisonValue? Compare(FlowValue left, FlowValue right, CompareOp op) => (left, right) switch
    {
        (LengthValue l, IntValue k) => new ComparisonValue(l.Site, op, k.Value),
        (IntValue k, LengthValue l) => new ComparisonValue(l.Site, op.Mirror(), k.Value),
        (CounterValue c, IntValue k) => new ComparisonValue(c.Site, op, k.Value),
        (IntValue k, CounterValue c) => new ComparisonValue(c.Site, op.Mirror(), k.Value),
        _ => null,
    };

    private static FlowState? Refine(FlowState state, ComparisonValue? test, bool holds, FlowValue[] stack) =>
        test is null ? state.WithStack(stack) : Narrow(state, test.Site, state.RangeOf(test.Site).Refine(test.Op, test.K, holds), stack);

    /// <summary>The state on an edge where the list's length is <paramref name="range"/>; null if that edge cannot be taken.</summary>
    private static FlowState? Narrow(FlowState state, int site, LengthRange range, FlowValue[] stack) =>
        range.IsEmpty ? null : state.WithRange(site, range, stack);

    /// <summary>"c.GetParameters().Length" compared with a constant, either way round.</summary>
    private static (CtorElement Element, int Arity)? ArityOf(FlowValue left, FlowValue right) => (left, right) switch
    {
        (ParameterCountValue c, IntValue k) => (c.Element, k.Value),
        (IntValue k, ParameterCountValue c) => (c.Element, k.Value),
        _ => null,
    };

    /// <summary>Whether the type the element's list was asked of is named and has at most one constructor of that arity.</summary>
    private bool OneOfArity(ArityTestValue test) =>
        _appliedTo.GetValueOrDefault(test.Element.List.Site) is { Handle: { IsNil: false } handle, Flags: var flags }
        && _counter.Count(handle, flags, test.Arity) is <= 1;

    /// <summary>The side of a comparison that is a loop element's parameter type, if one is.</summary>
    private static ParameterOfValue? TypedParameter(FlowValue left, FlowValue right) =>
        left is ParameterOfValue { IsType: true } l ? l : right is ParameterOfValue { IsType: true } r ? r : null;

    /// <summary>Every copy of <paramref name="element"/> (the loop variable, the stack) marked as matched uniquely.</summary>
    private static FlowState MarkUnique(FlowState state, CtorElement element)
    {
        static FlowValue Mark(FlowValue v, CtorElement element) => v switch
        {
            CtorElement e when e.Offset == element.Offset => e with { Unique = true },
            DerivedValue { Element: var e } d when e.Offset == element.Offset => d with { Element = e with { Unique = true } },
            _ => v,
        };
        return state.Mapping(v => Mark(v, element));
    }

    private static CompareOp? TwoOperandBranch(ILOpCode op) => op switch
    {
        ILOpCode.Beq or ILOpCode.Beq_s => CompareOp.Eq,
        ILOpCode.Bne_un or ILOpCode.Bne_un_s => CompareOp.Ne,
        ILOpCode.Bgt or ILOpCode.Bgt_s or ILOpCode.Bgt_un or ILOpCode.Bgt_un_s => CompareOp.Gt,
        ILOpCode.Bge or ILOpCode.Bge_s or ILOpCode.Bge_un or ILOpCode.Bge_un_s => CompareOp.Ge,
        ILOpCode.Blt or ILOpCode.Blt_s or ILOpCode.Blt_un or ILOpCode.Blt_un_s => CompareOp.Lt,
        ILOpCode.Ble or ILOpCode.Ble_s or ILOpCode.Ble_un or ILOpCode.Ble_un_s => CompareOp.Le,
        _ => null,
    };

    private static readonly HashSet<ILOpCode> Conversions = Enum.GetValues<ILOpCode>().Where(o => o.ToString().StartsWith("Conv", StringComparison.Ordinal)).ToHashSet();

    private static bool IsConversion(ILOpCode op) => Conversions.Contains(op);

    private static FlowValue Local(FlowState state, int index) => (uint)index < (uint)state.Locals.Length ? state.Locals[index] : FlowValue.Unknown;

    private static FlowValue Arg(FlowState state, int index) => (uint)index < (uint)state.Args.Length ? state.Args[index] : FlowValue.Unknown;

    private static FlowValue Peek(FlowValue[] stack, int depth) =>
        depth < stack.Length ? stack[stack.Length - 1 - depth] : throw new BadImageFormatException("evaluation stack underflow");

    private static FlowValue[] Pop(FlowValue[] stack, int count) =>
        count <= stack.Length ? stack[..^count] : throw new BadImageFormatException("evaluation stack underflow");

    private static FlowValue[] Push(FlowValue[] stack, FlowValue value)
    {
        var result = new FlowValue[stack.Length + 1];
        stack.CopyTo(result, 0);
        result[^1] = value;
        return result;
    }
}
