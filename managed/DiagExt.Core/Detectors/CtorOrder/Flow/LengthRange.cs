namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>What the code has proven about a constructor list's length on one path: [Low, High].</summary>
internal readonly record struct LengthRange(int Low, int High)
{
    public static LengthRange Any { get; } = new(0, int.MaxValue);

    public bool IsEmpty => Low > High;

    /// <summary>At most one constructor: whatever the runtime's order, index 0 names the same one.</summary>
    public bool AtMostOne => High <= 1;

    public static LengthRange Exactly(int n) => new(n, n);

    public LengthRange Union(LengthRange other) => new(Math.Min(Low, other.Low), Math.Max(High, other.High));

    /// <summary>Narrows the range by "length <paramref name="op"/> <paramref name="k"/>" being <paramref name="holds"/>.</summary>
    public LengthRange Refine(CompareOp op, int k, bool holds)
    {
        if (!holds)
            op = op.Negate();
        return op switch
        {
            CompareOp.Eq => new(Math.Max(Low, k), Math.Min(High, k)),
            CompareOp.Ne => k == Low ? this with { Low = Low + 1 } : k == High ? this with { High = High - 1 } : this,
            CompareOp.Gt => k == int.MaxValue ? new(1, 0) : this with { Low = Math.Max(Low, k + 1) },
            CompareOp.Ge => this with { Low = Math.Max(Low, k) },
            CompareOp.Lt => k == int.MinValue ? new(1, 0) : this with { High = Math.Min(High, k - 1) },
            CompareOp.Le => this with { High = Math.Min(High, k) },
            _ => this,
        };
    }

    public override string ToString() => High == int.MaxValue ? $"[{Low}, ...]" : $"[{Low}, {High}]";
}

/// <summary>A comparison of a length with a constant, normalised so that the length is on the left.</summary>
internal enum CompareOp
{
    Eq,
    Ne,
    Gt,
    Ge,
    Lt,
    Le,
}

internal static class CompareOps
{
    public static CompareOp Negate(this CompareOp op) => op switch
    {
        CompareOp.Eq => CompareOp.Ne,
        CompareOp.Ne => CompareOp.Eq,
        CompareOp.Gt => CompareOp.Le,
        CompareOp.Le => CompareOp.Gt,
        CompareOp.Ge => CompareOp.Lt,
        _ => CompareOp.Ge,
    };

    /// <summary>"k op length" written as "length op' k".</summary>
    public static CompareOp Mirror(this CompareOp op) => op switch
    {
        CompareOp.Gt => CompareOp.Lt,
        CompareOp.Lt => CompareOp.Gt,
        CompareOp.Ge => CompareOp.Le,
        CompareOp.Le => CompareOp.Ge,
        _ => op,
    };
}
