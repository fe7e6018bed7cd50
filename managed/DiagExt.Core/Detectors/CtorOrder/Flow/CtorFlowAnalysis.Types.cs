using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// What the code shows about a type it does not name: whether it is one only its own library knows (built at run
/// time, or a wrapper fixed by convention), which no assembly's metadata and no other process can settle.
/// </summary>
internal sealed partial class CtorFlowAnalysis
{
    /// <summary>Per list site: the unnamed type it came from, when the code shows where that type comes from.</summary>
    private readonly Dictionary<int, FlowValue> _typeOrigin = [];

    /// <summary>Getters whose type the code takes apart (GenericTypeArguments): a constructed generic of a shape it expects.</summary>
    private readonly HashSet<int> _takenApart = [];

    /// <summary>Per list site: its source's text and what to write before it (typeof(T)., or nothing when the type is unknown).</summary>
    private readonly Dictionary<int, (string Source, string Receiver)> _receivers = [];

    /// <summary>List sites whose constructor the code hands to TypeBuilder: a type it emits itself.</summary>
    private readonly HashSet<int> _emitted = [];

    /// <summary>
    /// Where an unnamed type comes from, and what the code does with it: a type returned by a getter, or built at run
    /// time (TypeBuilder.CreateType, or a method of this assembly that calls it); its generic arguments read; a
    /// constructor of it handed to TypeBuilder. <paramref name="result"/> is what the call gives otherwise.
    /// </summary>
    private FlowValue NoteTypeUse(MethodReference method, KnownCallKind kind, int token, FlowValue[] args, FlowValue result)
    {
        if (RuntimeTypeBuilders.IsTypeBuilder(method))
            foreach (FlowValue arg in args)
                if (arg is CtorElement { List.Site: >= 0 } element)
                    _emitted.Add(element.List.Site);
        if (method.Name is "get_GenericTypeArguments" or "GetGenericArguments" && args.Length == 1 && args[0] is TypeFromCall { IsGetter: true } taken)
            _takenApart.Add(taken.Token);
        if (kind != KnownCallKind.Other || result is not UnknownValue || method.ReturnType is not ("System.Type" or "System.Reflection.TypeInfo"))
            return result;
        bool createsType = RuntimeTypeBuilders.IsCreateType(method);
        bool getter = method.Name.StartsWith("get_", StringComparison.Ordinal) && method.ParameterCount == 0;
        return createsType || getter || !method.Definition.IsNil
            ? new TypeFromCall(token, MetadataNames.Short(method.DeclaringType), method.Name, method.Definition, createsType) { Offset = _callOffset }
            : result;
    }

    /// <summary>
    /// Why the type a pick is applied to is unknown in a way no process will settle either, or null: built at run time
    /// by this library, or a constructed generic whose shape the code relies on (a wrapper type fixed by convention).
    /// </summary>
    private string? UnknownBecause(int site) => _typeOrigin.GetValueOrDefault(site) switch
    {
        TypeFromCall call when call.CreatesType || !call.Local.IsNil && _builders.Builds(call.Local) =>
            $"the type is built at run time by {call.Owner}.{call.Name} (TypeBuilder): its constructors are what that code defines",
        TypeFromCall { IsGetter: true } getter when _takenApart.Contains(getter.Token) =>
            $"the type ({getter.Name[4..]}) is a constructed generic whose type arguments the code takes apart: a wrapper type fixed by convention, not named in the code",
        _ when _emitted.Contains(site) => "the constructor is handed to TypeBuilder: the type is one this library emits at run time",
        _ => null,
    };
}
