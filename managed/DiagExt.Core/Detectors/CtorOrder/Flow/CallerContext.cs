namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// The types every caller of a method passes it, by argument index, and holds in the fields it reads (a local function's
/// captured locals, by field token): the method's entry state when it is analysed again knowing its callers. Only
/// values the code names (<see cref="KnownTypes"/>), which mean the same in the callee as in the caller.
/// </summary>
internal sealed record CallerContext(IReadOnlyDictionary<int, FlowValue> Args, IReadOnlyDictionary<int, FlowValue> Fields)
{
    public bool IsEmpty => Args.Count == 0 && Fields.Count == 0;
}
