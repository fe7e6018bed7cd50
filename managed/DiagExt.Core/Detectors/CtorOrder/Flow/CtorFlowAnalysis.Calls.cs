using System.Reflection;
using System.Reflection.Metadata;
using DiagExt.Core.Detectors.CtorOrder.Model;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>Calls: where constructor lists come from and what each known step does to them.</summary>
internal sealed partial class CtorFlowAnalysis
{
    private const int PublicFlag = ConstructorCounter.PublicFlag, NonPublicFlag = ConstructorCounter.NonPublicFlag;
    private const int InstanceFlag = ConstructorCounter.InstanceFlag, StaticFlag = ConstructorCounter.StaticFlag;

    /// <summary>The IL offset of the call being interpreted, for the values it makes.</summary>
    private int _callOffset;

    private FlowState Call(IlInstruction ins, FlowState state)
    {
        (MethodReference? method, KnownCallKind kind) = _calls.Resolve(ins.Token);
        if (method is null)
            throw new BadImageFormatException($"IL_{ins.Offset:x4}: call token 0x{ins.Token:x8} names no method");
        bool isNewobj = ins.OpCode == ILOpCode.Newobj;
        int argCount = method.ParameterCount + (method.HasThis && !isNewobj ? 1 : 0) + (ins.OpCode == ILOpCode.Calli ? 1 : 0);
        FlowValue[] stack = state.Stack;
        FlowValue[] args = new FlowValue[argCount];
        for (int i = 0; i < argCount; i++)
            args[argCount - 1 - i] = Peek(stack, i);
        FlowValue[] rest = Pop(stack, argCount);
        _callOffset = ins.Offset;
        if (_callers.Active && !isNewobj && ins.OpCode != ILOpCode.Calli && LocalMethods.Resolve(_md, ins.Token) is { } callee && _callers.Wants(callee))
        {
            for (int i = 0; i < args.Length; i++)
                _callers.Saw(callee, i, args[i]);
            _callers.SawFields(callee, state.Fields);
        }
        // A call on a value type local ("ldloca e; call Enumerator.MoveNext") is a call on the local's value.
        if (method.HasThis && !isNewobj && argCount > 0 && args[0] is AddressValue { IsArgument: false } self)
            args[0] = Local(state, self.Index);

        if (kind == KnownCallKind.Sort && args.Length > 0 && args[0] is CtorList sorted)
        {
            // Array.Sort(list, comparison) / list.Sort(comparison): a comparison reading MetadataToken cannot tie.
            bool unique = args.Length > 1 && args[^1] is MethodValue comparison && _lambdas.KeyIsUnique(comparison.Method);
            return Replace(state.WithStack(rest), sorted.Site, sorted with { Order = new SortKey(SortKey.InPlace, !unique), Chain = sorted.Chain + ".Sort()" });
        }

        if (kind == KnownCallKind.MoveNext && args.Length == 1 && args[0] is CtorEnumerator { Moves: int moves } moving)
        {
            // The k-th MoveNext (from 0) is true when the list has more than k; the enumerator has then moved once more.
            FlowState moved = ReplaceEnumerator(state.WithStack(rest), moving, moving with { Moves = moves + 1 });
            return moved.WithStack(Push(moved.Stack, new ComparisonValue(moving.List.Site, CompareOp.Gt, moves)));
        }
        if (kind is KnownCallKind.GetConstructors or KnownCallKind.DeclaredConstructors && !isNewobj)
        {
            (CtorList list, int? count) = StartList(ins, kind, args);
            // Each execution makes a new list: forget what an earlier iteration proved about its length.
            return state.WithRange(list.Site, count is int n ? LengthRange.Exactly(n) : LengthRange.Any, Push(rest, list));
        }
        FlowValue result = isNewobj ? NewObject(method, kind, args, ins.Offset) : Result(method, kind, args);
        if (!isNewobj)
            result = NoteTypeUse(method, kind, ins.Token, args, result);
        if (DerivedFrom(args) is { } chosen)
        {
            // Whatever a call makes from a loop's element carries the choice: its result, and what it writes through out arguments.
            if (result is UnknownValue or NewObjectValue)
                result = new DerivedValue(chosen);
            foreach (FlowValue arg in args)
                if (arg is AddressValue { IsArgument: false } written)
                    state = state.WithLocal(written.Index, new DerivedValue(chosen), state.Stack);
        }
        if (!isNewobj && method.Name == "Add" && argCount == 2 && Collected(args[0], args[1]) is { } collected)
            state = state.Replacing(args[0], collected).WithRange(collected.Site, LengthRange.Any, state.Stack);
        // A new List<T> holds nothing: a length test on a path where the loop filled it may narrow only that path.
        if (isNewobj && result is NewObjectValue created && IsList(method))
            state = state.WithRange(created.Offset, LengthRange.Exactly(0), state.Stack);
        if (!isNewobj && method.HasThis && argCount > 1 && Escapes(method) && FlowValue.ChosenOf(args[0]) is null && DerivedFrom(args[1..]) is { } handedOn)
            state = Escaping(state, handedOn);
        if (method.ReturnsVoid && !isNewobj)
            return state.WithStack(rest);
        if (!isNewobj)
            result = TypedAs(method.ReturnType, result); // after the loop's choice: a lambda made from the element carries it
        CtorList? summarized = result is UnknownValue && !isNewobj ? SummarizedList(ins.Token, ins.Offset) : null;
        if (result is UnknownValue && !isNewobj && (summarized is not null || CtorCollectionTypes.Holds(method.ReturnType)))
        {
            // A method that hands back constructors (a wrapper around GetConstructors, in this assembly or another): in the
            // order its summary says it made, else one nothing here proves cannot matter.
            // Given a type the code names, it returns some of that type's constructors: at most all of them.
            CtorList returned = summarized ?? new CtorList(ins.Offset, CtorCollectionTypes.IsIndexable(method.ReturnType), null, $"{MetadataNames.Short(method.DeclaringType)}.{method.Name}()");
            int? all = args.OfType<TypeValue>().Select(t => _counter.Count(t.Handle, ConstructorCounter.AllFlags)).FirstOrDefault();
            return state.WithRange(ins.Offset, all is int n ? new LengthRange(0, n) : LengthRange.Any, Push(rest, returned));
        }
        return state.WithStack(Push(rest, result));
    }

    private static FlowValue NewObject(MethodReference ctor, KnownCallKind kind, FlowValue[] args, int offset)
    {
        if (kind == KnownCallKind.PassThrough && args.Length == 1 && args[0] is CtorList list)
            return list with { IsIndexable = true, Chain = $"new {MetadataNames.Short(ctor.DeclaringType)}({list.Chain})" };
        // A delegate: "newobj Func<...>::.ctor(object, native int)" with the method pointer last; over a closure that
        // holds a loop's element, it carries that element.
        if (args.Length == 2 && args[1] is MethodValue pointer)
            return FlowValue.ChosenOf(args[0]) is { } captured ? new DerivedValue(captured) : pointer with { IsDelegate = true };
        // A closure's display class: tracked by identity so that storing the element into it marks every copy. A new
        // List<T> too (empty, or given a capacity): a loop may fill it in the constructors' order (Collected).
        if (args.Length == 0 && CallerTypeFacts.IsDisplayClass(ctor.DeclaringType)
            || args.Length <= 1 && !args.Any(a => a is CtorList) && IsList(ctor))
            return new NewObjectValue(offset);
        return FlowValue.Unknown;
    }

    /// <summary>"GetGenericTypeDefinition() of t" compared with a typeof, either way round: a test that t is a constructed generic of it.</summary>
    private static TypeTestValue? DefinitionTest(FlowValue left, FlowValue right) => (left, right) switch
    {
        (GenericDefinitionValue d, TypeValue t) => new TypeTestValue(d.Type, new GenericOfValue(t)),
        (TypeValue t, GenericDefinitionValue d) => new TypeTestValue(d.Type, new GenericOfValue(t)),
        _ => null,
    };

    private static bool IsList(MethodReference method) => method.OpenDeclaringType == "System.Collections.Generic.List";

    /// <summary>
    /// "made.Add(x)" where made is a List&lt;T&gt; this method created and x a loop's element or something made from it (a
    /// delegate over its parameters, an object built from it): made now holds, in the loop's order, what each constructor
    /// that got there made, so taking its first is taking the first constructor that matched. Not for an element proven
    /// the only match (made then holds at most one).
    /// </summary>
    private static CtorList? Collected(FlowValue holder, FlowValue added)
    {
        int? at = holder switch
        {
            NewObjectValue created => created.Offset,
            CtorList { CollectedAt: int filled } => filled,
            _ => null,
        };
        if (at is null || FlowValue.ChosenOf(added) is not { Unique: false } element || !element.List.OrderMatters || element.List.CollectedAt is not null)
            return null;
        // A list of its own (its site the new List's offset): its length tests are about it, not the constructors' list.
        return new CtorList(at.Value, IsIndexable: true, element.List.Order, $"{element.List.Chain} -> List.Add(made from each)") { CollectedAt = at };
    }

    /// <summary>A System.Type the code does not name: a test on it can narrow it.</summary>
    private static bool IsUnnamedType(FlowValue v) => v is TypeFromCall or TypeArgumentValue or TypeSetValue;

    /// <summary>
    /// "t.IsDefined(typeof(CompilerGeneratedAttribute), false)", "Attribute.IsDefined(t, typeof(...))", or a helper of this
    /// assembly given only the type whose body asks for that attribute (LiteDB's IsAnonymousType).
    /// </summary>
    private bool TestsCompilerGenerated(MethodReference method, FlowValue[] args) =>
        method.Name == "IsDefined" && args.Length >= 2 && args[1] is TypeValue { Name: OrderDependentPick.CompilerGeneratedAttribute }
        || args.Length == 1 && !method.Definition.IsNil && _lambdas.TestsForAttribute(method.Definition, OrderDependentPick.CompilerGeneratedAttribute);

    /// <summary>
    /// Reflection's attribute lookups (IsDefined, GetCustomAttribute(s), GetCustomAttributesData) and a library's own
    /// (MEF's IsAttributeDefined&lt;T&gt;, GetDeclaredAttribute&lt;T&gt;): a test for a marker attribute.
    /// </summary>
    private static bool IsAttributeQuery(MethodReference method) =>
        method.Name == "IsDefined" || method.Name.Contains("Attribute", StringComparison.Ordinal) && !method.ReturnType.StartsWith("System.Reflection.ConstructorInfo", StringComparison.Ordinal);

    /// <summary>
    /// A call that hands its arguments to the object it is called on (a void method, a collection's Add/TryAdd/Insert, a
    /// setter), rather than asking it something: a loop's element passed there is kept beyond the iteration.
    /// </summary>
    private static bool Escapes(MethodReference method) =>
        method.ReturnsVoid || method.Name is "Add" or "TryAdd" or "Insert" or "Push" or "Enqueue" or "GetOrAdd" || method.Name.StartsWith("set_", StringComparison.Ordinal);

    /// <summary>The loop element one of the arguments is or was made from; method pointers and lambdas do not count.</summary>
    private static CtorElement? DerivedFrom(FlowValue[] args)
    {
        foreach (FlowValue arg in args)
            if (arg is not (MethodValue or CtorList or CtorEnumerator) && FlowValue.ChosenOf(arg) is { } element)
                return element;
        return null;
    }

    private FlowValue Result(MethodReference method, KnownCallKind kind, FlowValue[] args)
    {
        FlowValue first = args.Length > 0 ? args[0] : FlowValue.Unknown;
        switch (kind)
        {
            case KnownCallKind.TypeInfo when first is GenericDefinitionValue && method.Name == "GetTypeInfo":
                return first; // the same definition, seen as a TypeInfo (not an instantiation of it)
            case KnownCallKind.TypeFromHandle or KnownCallKind.TypeInfo:
                return first is TypeValue or TypeFromCall or FrameworkTypeValue or TypeArgumentValue or DelegateTypeValue or CompilerGeneratedTypeValue or GenericOfValue or TypeSetValue ? first : FlowValue.Unknown;
            case KnownCallKind.PassThrough when first is CtorList list:
                return list with
                {
                    IsIndexable = method.Name is "ToArray" or "ToList",
                    Chain = $"{list.Chain}.{method.Name}({Describe(args.Skip(1))})",
                    Filter = method.Name == "Where" && args.Length == 2 && args[1] is MethodValue where ? where : list.Filter,
                };
            case KnownCallKind.Other when method.Name == "New" && method.DeclaringType == "System.Linq.Expressions.Expression" && first is CtorElement built && InLoop(_callOffset):
                return new GeneratedNewValue(built);
            case KnownCallKind.Other when DelegateTypeFrom(method, first) is { } delegateType:
                return delegateType;
            case KnownCallKind.Other when method.Name == "GetParameters" && first is CtorElement element:
                return new ParametersValue(element);
            case KnownCallKind.Other when method.Name == "get_ParameterType" && first is ParameterOfValue { IsType: false } parameter:
                return parameter with { IsType = true };
            case KnownCallKind.Other when method.Name is "op_Equality" or "Equals" && args.OfType<ParameterOfValue>().FirstOrDefault(p => p.IsType) is { } typed:
                return new SignatureTestValue(typed.Element);
            case KnownCallKind.IndexGet when first is CtorList list && args.Length == 2:
                return new CtorElement(list, _callOffset);
            case KnownCallKind.GetEnumerator when first is CtorList list:
                return new CtorEnumerator(list, 0);
            case KnownCallKind.Current when first is CtorEnumerator enumerator:
                return new CtorElement(enumerator.List, _callOffset) { First = !InLoop(_callOffset) };
            case KnownCallKind.OrderBy when first is CtorList list:
                bool unique = args[1] is MethodValue key && _lambdas.KeyIsUnique(key.Method);
                bool thenBy = method.Name.StartsWith("ThenBy", StringComparison.Ordinal);
                bool canTie = thenBy && list.Order is { CanTie: false } ? false : !unique;
                return list with { IsIndexable = false, Order = new SortKey(method.Name, canTie), Chain = $"{list.Chain}.{method.Name}(key)" };
            case KnownCallKind.Other when method.Name == "GetUnderlyingType" && method.DeclaringType == "System.Nullable" && first is TypeFromCall or TypeArgumentValue:
                return new NullableProbeValue(first);
            case KnownCallKind.Other when method.Name is "op_Inequality" or "op_Equality" && args.Length == 2 && (args[0] as NullableProbeValue ?? args[1] as NullableProbeValue) is { } probe
                && (args[0] is NullValue || args[1] is NullValue):
                return TypeTestValue.Nullable(probe.Type, method.Name == "op_Inequality");
            case KnownCallKind.Other when method.ReturnType == "Boolean" && args.Length == 1 && first is TypeFromCall or TypeArgumentValue && !method.Definition.IsNil && _lambdas.TestsNullable(method.Definition):
                return TypeTestValue.Nullable(first);
            case KnownCallKind.Other when method.Name == "GetGenericTypeDefinition" && args.Length == 1 && IsUnnamedType(first):
                return new GenericDefinitionValue(first);
            case KnownCallKind.Other when method.Name is "op_Equality" or "op_Inequality" or "Equals" && args.Length == 2 && DefinitionTest(args[0], args[1]) is { } definitionTest:
                // "t.GetGenericTypeDefinition() == typeof(ReadOnlyCollection<>)": where it holds, t is a ReadOnlyCollection<T>.
                return definitionTest with { WhenTrue = method.Name != "op_Inequality" };
            case KnownCallKind.Other when method.ReturnType == "Boolean" && args.Length == 2 && IsUnnamedType(first) && args[1] is TypeValue definition
                && !method.Definition.IsNil && _lambdas.ComparesGenericDefinition(method.Definition):
                // A helper of the assembly doing the same with the definition it is given (AutoMapper's IsGenericType(t, typeof(X<>))).
                return new TypeTestValue(first, new GenericOfValue(definition));
            case KnownCallKind.Other when method.ReturnType == "Boolean" && IsUnnamedType(first) && TestsCompilerGenerated(method, args):
                return new TypeTestValue(first, CompilerGeneratedTypeValue.Instance);
            case KnownCallKind.Other when IsAttributeQuery(method) && DerivedFrom(args) is { } marked:
                return method.ReturnType == "Boolean" ? new AttributeTestValue(marked) : new AttributesValue(marked);
            case KnownCallKind.PassThrough when first is AttributesValue attributes:
                return attributes;
            case KnownCallKind.Any or KnownCallKind.Count when first is AttributesValue attributes:
                return new AttributeTestValue(attributes.Element);
            case KnownCallKind.IndexGet when first is ParametersValue parameters:
                return new ParameterOfValue(parameters.Element, false);
            case KnownCallKind.Count when first is ParametersValue parameters:
                return new ParameterCountValue(parameters.Element);
            case KnownCallKind.Count when first is NewObjectValue created:
                // A new List<T> a loop may fill (Collected): its length is tested under the site the filled list will have.
                return new LengthValue(created.Offset);
            case KnownCallKind.Count when first is CtorList list:
                return new LengthValue(list.Site);
            case KnownCallKind.Any when first is CtorList list:
                return new ComparisonValue(list.Site, CompareOp.Gt, 0);
            default:
                return FlowValue.Unknown;
        }
    }

    /// <summary>A new constructor list. When the code names the type, its constructor count bounds the length.</summary>
    private (CtorList List, int? Count) StartList(IlInstruction ins, KnownCallKind kind, FlowValue[] args)
    {
        FlowValue type = args.Length > 0 ? args[0] : FlowValue.Unknown;
        int flags = kind == KnownCallKind.DeclaredConstructors ? PublicFlag | NonPublicFlag | InstanceFlag | StaticFlag
            : args.Length > 1 && args[^1] is IntValue f ? f.Value
            : args.Length > 1 ? -1
            : PublicFlag | InstanceFlag;
        string flagsText = kind == KnownCallKind.DeclaredConstructors ? "" : args.Length > 1 ? (flags >= 0 ? $"({((System.Reflection.BindingFlags)flags).ToString().Replace(", ", " | ", StringComparison.Ordinal)})" : "(flags)") : "()";
        string source = kind == KnownCallKind.DeclaredConstructors ? "DeclaredConstructors" : $"GetConstructors{flagsText}";
        string? appliedTo = KnownTypes.Describe(type);
        int? count = KnownTypes.Count(_counter, type, flags);
        _appliedTo[ins.Offset] = (appliedTo, type is TypeValue tv ? tv.Handle : default, count, flags);
        if (type is TypeFromCall)
            _typeOrigin[ins.Offset] = type;
        // The receiver is written into the pattern when a pick is judged: a later pass may know the type better (two
        // paths joined), while the list the first pass made lives on in the states it reached.
        if (type is not UnknownValue)
            _askedOf[ins.Offset] = type;
        _receivers[ins.Offset] = (source, type switch
        {
            TypeSetValue set when appliedTo is not null => $"(one of {set.Types.Count} types).",
            DelegateTypeValue => "(a delegate type).",
            CompilerGeneratedTypeValue => "(a compiler-generated type).",
            GenericOfValue generic => $"(a {MetadataNames.Short(generic.Definition.Name)} the code tested).",
            _ => appliedTo is null ? "" : $"typeof({MetadataNames.Short(appliedTo)}).",
        });
        var list = new CtorList(ins.Offset, kind == KnownCallKind.GetConstructors, null, source);
        return (list, count);
    }

    /// <summary>Replaces every copy of <paramref name="old"/> in the stack and locals (the enumerator is one object).</summary>
    private static FlowState ReplaceEnumerator(FlowState state, CtorEnumerator old, CtorEnumerator moved)
    {
        FlowValue Swap(FlowValue v) => v == old ? moved : v;
        FlowState result = state.WithStack(state.Stack.Select(Swap).ToArray());
        for (int i = 0; i < state.Locals.Length; i++)
            if (state.Locals[i] == old)
                result = result.WithLocal(i, moved, result.Stack);
        return result;
    }

    /// <summary>Replaces every copy of the list from <paramref name="site"/> (Array.Sort sorts in place).</summary>
    private static FlowState Replace(FlowState state, int site, CtorList sorted)
    {
        FlowValue Swap(FlowValue v) => v is CtorList l && l.Site == site ? sorted : v;
        FlowState result = state.WithStack(state.Stack.Select(Swap).ToArray());
        for (int i = 0; i < state.Locals.Length; i++)
            if (state.Locals[i] is CtorList l && l.Site == site)
                result = result.WithLocal(i, sorted, result.Stack);
        for (int i = 0; i < state.Args.Length; i++)
            if (state.Args[i] is CtorList l && l.Site == site)
                result = result.WithArg(i, sorted, result.Stack);
        return result;
    }

    private static string Describe(IEnumerable<FlowValue> args) => string.Join(", ", args.Select(a => a switch
    {
        MethodValue => "lambda",
        IntValue i => i.Value.ToString(System.Globalization.CultureInfo.InvariantCulture),
        _ => "...",
    }));
}
