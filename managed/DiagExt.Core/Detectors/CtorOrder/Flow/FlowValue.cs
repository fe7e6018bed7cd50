using System.Reflection.Metadata;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// What the stack simulation knows about one IL stack slot, local or field. Everything it does not
/// model is <see cref="Unknown"/>; records give the value equality the fixpoint needs.
/// </summary>
internal abstract record FlowValue
{
    public static FlowValue Unknown { get; } = new UnknownValue();

    public static FlowValue Join(FlowValue a, FlowValue b)
    {
        if (a.Equals(b))
            return a;
        if (a is ConflictValue || b is ConflictValue)
            return ConflictValue.Instance;
        if (a is DerivedValue || b is DerivedValue)
            return JoinDerived(a, b);
        // A type proven Nullable<T> on one path and not tested on the other: still that one type, which a later test can narrow again.
        if (a is FrameworkTypeValue && b is TypeFromCall or TypeArgumentValue)
            return b;
        if (b is FrameworkTypeValue && a is TypeFromCall or TypeArgumentValue)
            return a;
        if ((ElementOf(a), ElementOf(b)) is (var ea, var eb) && (ea is not null || eb is not null))
            return JoinElements(a, ea, b, eb);
        if (a is CtorList ca && b is CtorList cb && ca.Site == cb.Site)
            return ca.JoinWith(cb);
        // "var made = new List<T>(); foreach (...) made.Add(...)": at the loop's head, the empty list or the one filled so far.
        if ((a, b) is (NewObjectValue created, CtorList { CollectedAt: int at }) && created.Offset == at)
            return b;
        if ((a, b) is (CtorList { CollectedAt: int at2 }, NewObjectValue created2) && created2.Offset == at2)
            return a;
        // "count = 0; ... count++": before the loop and after some passes, the same counter.
        if ((a, b) is (IntValue { Value: 0 }, CounterValue) or (CounterValue, IntValue { Value: 0 }))
            return a is CounterValue ? a : b;
        if (a is CtorEnumerator na && b is CtorEnumerator nb && na.List.Site == nb.List.Site)
            return new CtorEnumerator(na.List.JoinWith(nb.List), na.Moves == nb.Moves ? na.Moves : null);
        // "t = c ? typeof(A) : typeof(B)": one of a few known types.
        if (TypeSetValue.Of(a, b) is { } types)
            return types;
        return Unknown;
    }

    /// <summary>The loop element a value is, or may be on some path.</summary>
    public static CtorElement? ElementOf(FlowValue v) => v as CtorElement ?? (v as MaybeElement)?.Element;

    /// <summary>
    /// The loop element a value is or was made from (<see cref="DerivedValue"/>): what leaves a first-match loop with it
    /// carries the loop's choice, be it the constructor, an object built from it or a delegate closing over it.
    /// </summary>
    public static CtorElement? ChosenOf(FlowValue v) => ElementOf(v) ?? (v as DerivedValue)?.Element ?? v switch
    {
        ParametersValue p => p.Element,
        ParameterOfValue p => p.Element,
        _ => null,
    };

    /// <summary>
    /// Something made from a loop's element meets another value: still the loop's choice on the paths that made it (the
    /// other path is a fallback or the value before the loop), unless two different elements meet.
    /// </summary>
    private static FlowValue JoinDerived(FlowValue a, FlowValue b)
    {
        if (a is ConflictValue || b is ConflictValue)
            return ConflictValue.Instance;
        CtorElement? ea = ChosenOf(a), eb = ChosenOf(b);
        if (ea is not null && eb is not null && (ea.Offset != eb.Offset || ea.List.Site != eb.List.Site))
            return ConflictValue.Instance;
        CtorElement element = (ea ?? eb)!;
        CtorElement joined = ea is not null && eb is not null ? element with { List = ea.List.JoinWith(eb.List), Unique = ea.Unique && eb.Unique } : element;
        return new DerivedValue(joined);
    }

    private static FlowValue JoinElements(FlowValue a, CtorElement? ea, FlowValue b, CtorElement? eb)
    {
        if (ea is not null && eb is not null)
        {
            if (ea.Offset != eb.Offset || ea.List.Site != eb.List.Site)
                return ConflictValue.Instance;
            CtorElement joined = ea with { List = ea.List.JoinWith(eb.List), Unique = ea.Unique && eb.Unique };
            return a is MaybeElement || b is MaybeElement ? new MaybeElement(joined) : joined;
        }
        // "found = null; foreach (...) if (...) found = c; return found;": the loop's choice, or nothing.
        if ((a, b) is (NullValue, CtorElement) or (CtorElement, NullValue))
            return a is CtorElement ? a : b;
        // "foreach (...) if (...) { found = c; break; } if (found == null) found = Fallback();": the loop's choice on one path.
        return new MaybeElement((ea ?? eb)!);
    }
}

internal sealed record UnknownValue : FlowValue;

/// <summary>Two different loop elements met: the top of the lattice, which no later join leaves (keeps the fixpoint finite).</summary>
internal sealed record ConflictValue : FlowValue
{
    public static ConflictValue Instance { get; } = new();
}

/// <summary>A loop's element on some paths, another value on others: returned, the loop's choice is returned on those paths.</summary>
internal sealed record MaybeElement(CtorElement Element) : FlowValue;

/// <summary>ldnull: "ConstructorInfo found = null" before a loop that may set it.</summary>
internal sealed record NullValue : FlowValue
{
    public static NullValue Instance { get; } = new();
}

internal sealed record IntValue(int Value) : FlowValue;

/// <summary>
/// An int that starts at zero and only grows by one ("count++"), tracked like a list's length at its own
/// <see cref="Site"/> (below every parameter site), so that "count == 1" narrows it the same way.
/// </summary>
internal sealed record CounterValue(int Site) : FlowValue
{
    public static int SiteAt(int addOffset) => -(1 << 20) - addOffset;
}

/// <summary>A System.Type whose identity the code shows: <c>typeof(T)</c>.</summary>
internal sealed record TypeValue(string Name, EntityHandle Handle) : FlowValue;

/// <summary>
/// A System.Type the code does not name, returned by the call with token <see cref="Token"/>: TypeBuilder.CreateType
/// (<see cref="CreatesType"/>), a method of this assembly (<see cref="Local"/>: whether it builds types is asked only
/// when a pick needs it), or a getter (request.ActivationType: the same getter gives the same value, so the code
/// taking its generic arguments apart elsewhere in the method is seen as about this type).
/// </summary>
internal sealed record TypeFromCall(int Token, string Owner, string Name, MethodDefinitionHandle Local, bool CreatesType) : FlowValue
{
    /// <summary>Where the call is: two reads of the same getter ("expr.Type", "operand.Type") are different types.</summary>
    public int Offset { get; init; }

    public bool IsGetter => Name.StartsWith("get_", StringComparison.Ordinal);
}

/// <summary>
/// A framework type the code has proven a value to be without naming it: a type whose generic definition was tested to be
/// Nullable&lt;T&gt; ("Nullable.GetUnderlyingType(t) != null", or a helper testing GetGenericTypeDefinition() == typeof(Nullable&lt;&gt;)).
/// Its constructors are counted in the runtime's assemblies.
/// </summary>
internal sealed record FrameworkTypeValue(string Namespace, string Name) : FlowValue
{
    public static FrameworkTypeValue Nullable { get; } = new("System", "Nullable`1");
}

/// <summary>An expression tree lambda (its static type LambdaExpression or Expression&lt;TDelegate&gt;): its Type is a delegate type.</summary>
internal sealed record LambdaValue : FlowValue
{
    public static LambdaValue Instance { get; } = new();
}

/// <summary>A delegate type the code does not name (<see cref="From"/> says how it is known): one constructor, (object, IntPtr).</summary>
internal sealed record DelegateTypeValue(string From) : FlowValue;

/// <summary>
/// One of a few types (<see cref="TypeValue"/>, <see cref="FrameworkTypeValue"/>, <see cref="DelegateTypeValue"/>, and
/// types the code does not name, which make the set uncountable but keep it one value a test can narrow),
/// as two paths join: "c ? typeof(A&lt;&gt;).MakeGenericType(t) : typeof(B&lt;&gt;).MakeGenericType(t)". A pick from its constructors
/// is left alone when every one of them has at most one that matches.
/// </summary>
internal sealed record TypeSetValue : FlowValue
{
    /// <summary>Beyond this many, nothing is said: a fixpoint over a growing set stops here.</summary>
    public const int MaxTypes = 8;

    private TypeSetValue(IReadOnlyList<FlowValue> types) => Types = types;

    /// <summary>The types, in a fixed order (so that equal sets are equal values).</summary>
    public IReadOnlyList<FlowValue> Types { get; }

    public static TypeSetValue? Of(FlowValue a, FlowValue b)
    {
        if (Members(a) is not { } left || Members(b) is not { } right)
            return null;
        List<FlowValue> union = left.Concat(right).Distinct()
            .OrderBy(t => t.ToString(), StringComparer.Ordinal).ThenBy(t => t is TypeValue tv ? System.Reflection.Metadata.Ecma335.MetadataTokens.GetToken(tv.Handle) : 0).ToList();
        return union.Count <= MaxTypes ? new TypeSetValue(union) : null;
    }

    private static IEnumerable<FlowValue>? Members(FlowValue v) => v switch
    {
        TypeValue or FrameworkTypeValue or DelegateTypeValue or CompilerGeneratedTypeValue or GenericOfValue => [v],
        // A type the code does not name, joined with another: still one value a later test can narrow (a local reassigned
        // on one path, "if (IsNullable(t)) t = UnderlyingTypeOf(t)"); counted as unknown, as each alone is.
        TypeArgumentValue or TypeFromCall => [v],
        TypeSetValue set => set.Types,
        _ => null,
    };

    public bool Equals(TypeSetValue? other) => other is not null && Types.SequenceEqual(other.Types);

    public override int GetHashCode() => Types.Aggregate(17, (h, t) => h * 31 + t.GetHashCode());
}

/// <summary>
/// A constructed generic whose definition the code tested to be <see cref="Definition"/>: "t.IsGenericType &amp;&amp;
/// t.GetGenericTypeDefinition() == typeof(ReadOnlyCollection&lt;&gt;)", in place or in a helper of the assembly. Its
/// constructors are the definition's.
/// </summary>
internal sealed record GenericOfValue(TypeValue Definition) : FlowValue;

/// <summary>GetGenericTypeDefinition() of a type the code does not name: compared with a typeof, a test of that type.</summary>
internal sealed record GenericDefinitionValue(FlowValue Type) : FlowValue;

/// <summary>Nullable.GetUnderlyingType(<see cref="Type"/>): not null when the type is a Nullable&lt;T&gt;.</summary>
internal sealed record NullableProbeValue(FlowValue Type) : FlowValue;

/// <summary>
/// A boolean that holds (when <see cref="WhenTrue"/>) or fails when <see cref="Type"/> is what <see cref="Proven"/> says:
/// a Nullable&lt;T&gt;, a type the compiler generated, or a constructed generic of a definition the code names.
/// </summary>
internal sealed record TypeTestValue(FlowValue Type, FlowValue Proven, bool WhenTrue = true) : FlowValue
{
    public static TypeTestValue Nullable(FlowValue type, bool whenTrue = true) => new(type, FrameworkTypeValue.Nullable, whenTrue);
}

/// <summary>
/// A type the code tested to wear [CompilerGenerated] (an anonymous type, a closure, a state machine): C# gives each one
/// public instance constructor.
/// </summary>
internal sealed record CompilerGeneratedTypeValue : FlowValue
{
    public static CompilerGeneratedTypeValue Instance { get; } = new();
}

/// <summary>The method's own System.Type parameter <see cref="Index"/>: unknown, but one value, so a test on it narrows every copy.</summary>
internal sealed record TypeArgumentValue(int Index) : FlowValue;

/// <summary>
/// Constructors as reflection returned them: from the call at IL offset <see cref="Site"/>, perhaps
/// filtered, projected or sorted since. <see cref="Order"/> is set once the list was sorted by a key.
/// </summary>
internal sealed record CtorList(int Site, bool IsIndexable, SortKey? Order, string Chain) : FlowValue
{
    /// <summary>The predicate of a Where() applied since: First() after it picks what the predicate picks.</summary>
    public MethodValue? Filter { get; init; }

    /// <summary>
    /// Set when this is not reflection's list itself but a List&lt;T&gt; (created at this IL offset) that a loop over it filled
    /// with what each constructor made, in the loop's order: its first is the first constructor that got there.
    /// </summary>
    public int? CollectedAt { get; init; }

    public CtorList JoinWith(CtorList other) => new(Site, IsIndexable && other.IsIndexable, SortKey.Either(Order, other.Order), Chain.Length >= other.Chain.Length ? Chain : other.Chain)
    {
        Filter = Filter == other.Filter ? Filter : null,
        CollectedAt = CollectedAt == other.CollectedAt ? CollectedAt : null,
    };

    /// <summary>Whether the list's order can differ between runtimes: reflection's own order, or a sort with ties.</summary>
    public bool OrderMatters => Order is null || Order.CanTie;
}

/// <summary>How a constructor list was sorted, and whether two constructors can have equal keys (a tie keeps reflection's order).</summary>
internal sealed record SortKey(string How, bool CanTie)
{
    /// <summary>Array.Sort / List.Sort: unstable, so a tie is not even kept in reflection's order.</summary>
    public const string InPlace = "Sort";

    /// <summary>What a tie does to the order, for the finding's pattern.</summary>
    public string TieText => How == InPlace
        ? "unstable sort whose key can tie: tied constructors come out in an order neither reflection nor the sort promises"
        : "sort key can tie: equal keys keep reflection's order";

    public static SortKey? Either(SortKey? a, SortKey? b) => a is null ? b : b is null ? a : a.CanTie ? a : b;
}

/// <summary>
/// An enumerator over a constructor list (GetEnumerator, the first half of foreach), and how many MoveNext calls it
/// has seen on this path when that is known: the next MoveNext is then "length > Moves".
/// </summary>
internal sealed record CtorEnumerator(CtorList List, int? Moves) : FlowValue;

/// <summary>
/// One constructor taken from a list at a position the code does not fix (a loop's element, enumerator.Current)
/// at IL offset <see cref="Offset"/>: returning it from inside the loop returns the first that matched.
/// </summary>
internal sealed record CtorElement(CtorList List, int Offset) : FlowValue
{
    /// <summary>
    /// Matched on this path by what only one constructor can have: no parameters ("if (c.GetParameters().Length == 0)
    /// return c;") or an exact parameter type ("p[0].ParameterType == typeof(X)"), the loop form of an exact predicate.
    /// </summary>
    public bool Unique { get; init; }

    /// <summary>
    /// Taken by enumerator.Current outside any loop: the list's first constructor. It is a pick where it is used (returned,
    /// stored, called on), so that a "!e.MoveNext()" between proves the list held only it.
    /// </summary>
    public bool First { get; init; }
}

/// <summary>
/// A value computed from a loop's element or holding it: the result of a call or constructor given the element (or
/// something made from it), an object the element was stored into (a closure's display class), a delegate over such
/// an object, a local written through an out argument of such a call.
/// </summary>
internal sealed record DerivedValue(CtorElement Element) : FlowValue;

/// <summary>"this" in an instance method: one object, so a store into its fields is told from a store into another's.</summary>
internal sealed record ThisValue : FlowValue
{
    public static ThisValue Instance { get; } = new();
}

/// <summary>The address of a local (ldloca) or of an argument (ldarga, or ldarg of a by-reference parameter).</summary>
internal sealed record AddressValue(bool IsArgument, int Index) : FlowValue;

/// <summary>An object created by newobj at <see cref="Offset"/>: a closure's display class, until the element is stored into it.</summary>
internal sealed record NewObjectValue(int Offset) : FlowValue;

/// <summary>A loop element's custom attributes (GetCustomAttributes, GetCustomAttribute&lt;T&gt;, a library's own attribute lookup).</summary>
internal sealed record AttributesValue(CtorElement Element) : FlowValue;

/// <summary>
/// A boolean that holds (<see cref="Present"/>) or fails when a loop element carries a given attribute: a marker only one
/// constructor wears, so the element is unique on the edge where it is present.
/// </summary>
internal sealed record AttributeTestValue(CtorElement Element, bool Present = true) : FlowValue;

/// <summary>Expression.New(c, ...) on a loop's element inside the loop: code generated for one constructor of the list.</summary>
internal sealed record GeneratedNewValue(CtorElement Element) : FlowValue;

/// <summary>One parameter of a loop's element (c.GetParameters()[k]), or its ParameterType.</summary>
internal sealed record ParameterOfValue(CtorElement Element, bool IsType) : FlowValue;

/// <summary>A boolean that is true when a loop element's parameter type equals a given type.</summary>
internal sealed record SignatureTestValue(CtorElement Element) : FlowValue;

/// <summary>The parameter count of a loop's element: c.GetParameters().Length.</summary>
internal sealed record ParameterCountValue(CtorElement Element) : FlowValue;

/// <summary>
/// The boolean "c.GetParameters().Length == Arity" on a loop's element (<see cref="Equal"/> false: "!="): where the type
/// the code names has one constructor of that arity, the element is unique on the edge where it holds.
/// </summary>
internal sealed record ArityTestValue(CtorElement Element, int Arity, bool Equal) : FlowValue;

/// <summary>c.GetParameters() of a loop's element.</summary>
internal sealed record ParametersValue(CtorElement Element) : FlowValue;

/// <summary>The length (or count) of the constructor list from <see cref="Site"/>.</summary>
internal sealed record LengthValue(int Site) : FlowValue;

/// <summary>The boolean "length of Site op K".</summary>
internal sealed record ComparisonValue(int Site, CompareOp Op, int K) : FlowValue
{
    public ComparisonValue Negated => this with { Op = Op.Negate() };
}

/// <summary>A method pointer (ldftn) or a delegate made from one: a lambda's body can be read.</summary>
internal sealed record MethodValue(MethodDefinitionHandle Method, bool IsDelegate) : FlowValue;
