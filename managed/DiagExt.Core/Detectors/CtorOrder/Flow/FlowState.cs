namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// The simulated machine state before one instruction: evaluation stack, locals, arguments, what each
/// constructor list's length is known to be, and values stored in fields (by field token, any instance).
/// Immutable: transfer functions copy what they change.
/// </summary>
internal sealed class FlowState
{
    private FlowState(FlowValue[] stack, FlowValue[] locals, FlowValue[] args, Dictionary<int, LengthRange> ranges, Dictionary<int, FlowValue> fields)
    {
        Stack = stack;
        Locals = locals;
        Args = args;
        Ranges = ranges;
        Fields = fields;
    }

    public FlowValue[] Stack { get; }

    public FlowValue[] Locals { get; }

    public FlowValue[] Args { get; }

    public Dictionary<int, LengthRange> Ranges { get; }

    public Dictionary<int, FlowValue> Fields { get; }

    public static FlowState Entry(int locals, int args, IReadOnlyDictionary<int, FlowValue> fields) => new([], Fill(locals), Fill(args), [], new Dictionary<int, FlowValue>(fields));

    /// <summary>The key under which <see cref="Fields"/> holds what a loop's element escaped into on this path (a call on another object, a field, an array).</summary>
    public const int EscapeKey = int.MinValue;

    public FlowState WithStack(FlowValue[] stack) => new(stack, Locals, Args, Ranges, Fields);

    /// <summary>The state a handler starts with: the same locals, only the exception (or nothing) on the stack.</summary>
    public FlowState ForHandler(bool exceptionOnStack) => new(exceptionOnStack ? [FlowValue.Unknown] : [], Locals, Args, Ranges, Fields);

    public FlowState WithLocal(int index, FlowValue value, FlowValue[] stack) =>
        (uint)index < (uint)Locals.Length ? new(stack, Set(Locals, index, value), Args, Ranges, Fields) : WithStack(stack);

    public FlowState WithArg(int index, FlowValue value, FlowValue[] stack) =>
        (uint)index < (uint)Args.Length ? new(stack, Locals, Set(Args, index, value), Ranges, Fields) : WithStack(stack);

    public FlowState WithField(int token, FlowValue value, FlowValue[] stack)
    {
        var fields = new Dictionary<int, FlowValue>(Fields) { [token] = value };
        return new(stack, Locals, Args, Ranges, fields);
    }

    /// <summary>The key under which <see cref="Fields"/> holds what the method stored through its by-reference argument <paramref name="arg"/>.</summary>
    public static int OutKey(int arg) => -1 - arg;

    /// <summary>What the method has stored through its by-reference arguments on this path.</summary>
    public IEnumerable<FlowValue> Outs => Fields.Where(f => f.Key < 0 && f.Key != EscapeKey).Select(f => f.Value);

    /// <summary>
    /// Every copy of <paramref name="old"/> on the stack, in locals, arguments and fields replaced by <paramref name="now"/>
    /// (one object, seen through several slots: a local a closure captured lives in its display class's field).
    /// </summary>
    public FlowState Replacing(FlowValue old, FlowValue now)
    {
        FlowValue Swap(FlowValue v) => v.Equals(old) ? now : v;
        Dictionary<int, FlowValue> fields = Fields;
        if (Fields.Values.Any(v => v.Equals(old)))
            fields = Fields.ToDictionary(f => f.Key, f => Swap(f.Value));
        return new(Stack.Select(Swap).ToArray(), Locals.Select(Swap).ToArray(), Args.Select(Swap).ToArray(), Ranges, fields);
    }

    /// <summary>Every value on the stack, in locals, arguments and what was stored through out arguments, passed through <paramref name="map"/>.</summary>
    public FlowState Mapping(Func<FlowValue, FlowValue> map)
    {
        var fields = new Dictionary<int, FlowValue>(Fields);
        foreach (int key in Fields.Keys.Where(k => k < 0))
            fields[key] = map(Fields[key]);
        return new(Stack.Select(map).ToArray(), Locals.Select(map).ToArray(), Args.Select(map).ToArray(), Ranges, fields);
    }

    public FlowState WithRange(int site, LengthRange range, FlowValue[] stack)
    {
        var ranges = new Dictionary<int, LengthRange>(Ranges) { [site] = range };
        return new(stack, Locals, Args, ranges, Fields);
    }

    public LengthRange RangeOf(int site) => Ranges.TryGetValue(site, out LengthRange r) ? r : LengthRange.Any;

    /// <summary>Merges two paths; null when their stack depths differ (invalid IL).</summary>
    public static FlowState? Join(FlowState a, FlowState b)
    {
        if (a.Stack.Length != b.Stack.Length)
            return null;
        var ranges = new Dictionary<int, LengthRange>(a.Ranges);
        foreach (var (site, range) in b.Ranges)
            ranges[site] = ranges.TryGetValue(site, out LengthRange mine) ? mine.Union(range) : range;
        var fields = new Dictionary<int, FlowValue>();
        foreach (var (token, value) in a.Fields)
            if (b.Fields.TryGetValue(token, out FlowValue? other))
                fields[token] = FlowValue.Join(value, other);
        return new(JoinAll(a.Stack, b.Stack), JoinAll(a.Locals, b.Locals), JoinAll(a.Args, b.Args), ranges, fields);
    }

    public bool SameAs(FlowState other) =>
        Stack.AsSpan().SequenceEqual(other.Stack) && Locals.AsSpan().SequenceEqual(other.Locals) && Args.AsSpan().SequenceEqual(other.Args)
        && SameEntries(Ranges, other.Ranges) && SameEntries(Fields, other.Fields);

    private static bool SameEntries<T>(Dictionary<int, T> a, Dictionary<int, T> b) =>
        a.Count == b.Count && a.All(e => b.TryGetValue(e.Key, out T? v) && EqualityComparer<T>.Default.Equals(e.Value, v));

    private static FlowValue[] JoinAll(FlowValue[] a, FlowValue[] b)
    {
        var result = new FlowValue[Math.Min(a.Length, b.Length)];
        for (int i = 0; i < result.Length; i++)
            result[i] = FlowValue.Join(a[i], b[i]);
        return result;
    }

    private static FlowValue[] Set(FlowValue[] values, int index, FlowValue value)
    {
        var copy = (FlowValue[])values.Clone();
        copy[index] = value;
        return copy;
    }

    private static FlowValue[] Fill(int n)
    {
        var values = new FlowValue[n];
        Array.Fill(values, FlowValue.Unknown);
        return values;
    }
}
