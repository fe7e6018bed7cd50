using System.Reflection.Metadata;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// What the analysis knows about the methods of one assembly as callees, so that a constructor list is followed through
/// calls: which methods hand back constructors they listed themselves (or what they made from them: a wrapper, a sorted
/// copy, an iterator's yields, a cached array), in what order; and which helpers take an element by position from a
/// sequence they are given (a library's own First()). Each method is summarised once per scan and cached; nesting is
/// bounded (<see cref="MaxDepth"/>), a summary still being computed counts as none (recursion), and a large helper is
/// not summarised. Like ILLink's dataflow this stays inside the assembly: a call into another assembly is judged by its
/// signature alone (a return type holding constructors is a list of unknown order).
/// </summary>
internal sealed class MethodSummaries(FlowServices services)
{
    /// <summary>How many helper summaries may be computed inside one another.</summary>
    public const int MaxDepth = 3;

    /// <summary>A helper larger than this (IL bytes) is not summarised: pick helpers are small.</summary>
    private const int MaxHelperBytes = 4096;

    private readonly Dictionary<MethodDefinitionHandle, int?> _picksFrom = [];
    private readonly Dictionary<MethodDefinitionHandle, ReturnedList> _returns = [];
    private int _depth;

    /// <summary>Constructors (or what was made from them) a method returns, listed by itself: their order, and how they came about.</summary>
    public sealed record ReturnedList(bool IsIndexable, SortKey? Order, string Chain);

    /// <summary>The methods known to return a constructor list.</summary>
    public IReadOnlyCollection<MethodDefinitionHandle> Returning => _returns.Keys;

    public ReturnedList? Returns(MethodDefinitionHandle method) => method.IsNil ? null : _returns.GetValueOrDefault(method);

    /// <summary>Records what a method returns; true when that is new.</summary>
    public bool NoteReturns(MethodDefinitionHandle method, ReturnedList returned)
    {
        if (_returns.TryGetValue(method, out ReturnedList? known) && known == returned)
            return false;
        _returns[method] = returned;
        return true;
    }

    /// <summary>
    /// The argument (IL numbering: 0 is "this" of an instance method) a helper takes an element from by position, when
    /// given a sequence there: FastExpressionCompiler's GetFirst, a library's own FirstOrDefault. Null when it does not.
    /// </summary>
    public int? PicksFrom(MethodDefinitionHandle helper)
    {
        if (helper.IsNil)
            return null;
        if (_picksFrom.TryGetValue(helper, out int? known))
            return known;
        if (_depth >= MaxDepth)
            return null;
        _picksFrom[helper] = null; // while it is being computed: a recursive call picks nothing
        int? result = null;
        try
        {
            if (services.Image.Body(helper) is { } body && body.GetILBytes() is { Length: > 0 and <= MaxHelperBytes } il)
            {
                _depth++;
                try
                {
                    result = CtorFlowAnalysis.PickingArgument(services, helper, body, IlDecoder.Decode(il));
                }
                finally
                {
                    _depth--;
                }
            }
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            // A helper that does not decode picks nothing we can vouch for.
        }
        _picksFrom[helper] = result;
        return result;
    }
}
