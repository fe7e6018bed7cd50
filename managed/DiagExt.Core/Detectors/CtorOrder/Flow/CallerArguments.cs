using System.Reflection.Metadata;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// What the callers of chosen methods of one assembly pass them: per method and argument index, the join of every
/// value seen at a call, and the fields' values at the calls (a local function's captured locals). A method whose address is taken (ldftn: a delegate may call it with anything) is escaped and
/// says nothing. Empty, and never consulted, unless <see cref="Want"/> asked for some methods.
/// </summary>
internal sealed class CallerArguments
{
    private readonly HashSet<MethodDefinitionHandle> _wanted = [];
    private readonly HashSet<MethodDefinitionHandle> _escaped = [];
    private readonly Dictionary<(MethodDefinitionHandle Method, int Index), FlowValue> _seen = [];
    private readonly Dictionary<MethodDefinitionHandle, Dictionary<int, FlowValue>> _fields = [];

    public bool Active => _wanted.Count > 0;

    public void Want(IEnumerable<MethodDefinitionHandle> methods) => _wanted.UnionWith(methods);

    public bool Wants(MethodDefinitionHandle method) => _wanted.Contains(method);

    public void Saw(MethodDefinitionHandle method, int index, FlowValue value) =>
        _seen[(method, index)] = _seen.TryGetValue((method, index), out FlowValue? before) ? FlowValue.Join(before, value) : value;

    /// <summary>
    /// What the caller's fields hold at the call (by token): a local function reads the locals it captured from the
    /// caller's display class, passed by reference. Kept per method as the values every call agrees to have, joined.
    /// </summary>
    public void SawFields(MethodDefinitionHandle method, IReadOnlyDictionary<int, FlowValue> fields)
    {
        if (!_fields.TryGetValue(method, out Dictionary<int, FlowValue>? before))
        {
            _fields[method] = fields.Where(f => f.Key >= 0).ToDictionary(f => f.Key, f => f.Value);
            return;
        }
        foreach (int token in before.Keys.ToList())
        {
            if (fields.TryGetValue(token, out FlowValue? now))
                before[token] = FlowValue.Join(before[token], now);
            else
                before.Remove(token);
        }
    }

    /// <summary>The field values every call to <paramref name="method"/> agrees on (joined), or none when not every call is known.</summary>
    public IReadOnlyDictionary<int, FlowValue> FieldsOf(MethodDefinitionHandle method) =>
        !_escaped.Contains(method) && _fields.TryGetValue(method, out Dictionary<int, FlowValue>? fields) ? fields : new Dictionary<int, FlowValue>();

    public void Escaped(MethodDefinitionHandle method) => _escaped.Add(method);

    /// <summary>A caller could not be analysed: no wanted method's callers are all known.</summary>
    public void EscapedAll() => _escaped.UnionWith(_wanted);

    /// <summary>What every caller passes at <paramref name="index"/>, or null when not every call is known (or none was seen).</summary>
    public FlowValue? Of(MethodDefinitionHandle method, int index) =>
        _escaped.Contains(method) ? null : _seen.GetValueOrDefault((method, index));
}
