using System.Reflection.Metadata;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// What the callers of chosen methods of one assembly pass them: per method and argument index, the join of every
/// value seen at a call. A method whose address is taken (ldftn: a delegate may call it with anything) is escaped and
/// says nothing. Empty, and never consulted, unless <see cref="Want"/> asked for some methods.
/// </summary>
internal sealed class CallerArguments
{
    private readonly HashSet<MethodDefinitionHandle> _wanted = [];
    private readonly HashSet<MethodDefinitionHandle> _escaped = [];
    private readonly Dictionary<(MethodDefinitionHandle Method, int Index), FlowValue> _seen = [];

    public bool Active => _wanted.Count > 0;

    public void Want(IEnumerable<MethodDefinitionHandle> methods) => _wanted.UnionWith(methods);

    public bool Wants(MethodDefinitionHandle method) => _wanted.Contains(method);

    public void Saw(MethodDefinitionHandle method, int index, FlowValue value) =>
        _seen[(method, index)] = _seen.TryGetValue((method, index), out FlowValue? before) ? FlowValue.Join(before, value) : value;

    public void Escaped(MethodDefinitionHandle method) => _escaped.Add(method);

    /// <summary>A caller could not be analysed: no wanted method's callers are all known.</summary>
    public void EscapedAll() => _escaped.UnionWith(_wanted);

    /// <summary>What every caller passes at <paramref name="index"/>, or null when not every call is known (or none was seen).</summary>
    public FlowValue? Of(MethodDefinitionHandle method, int index) =>
        _escaped.Contains(method) ? null : _seen.GetValueOrDefault((method, index));
}
