using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// Abstract interpretation of one method's IL: follows the constructor lists that GetConstructors /
/// DeclaredConstructors return through the stack, locals and fields, what the code proves about their
/// length on each path, and reports each instruction that takes one by position while more than one may
/// be there. Bounded: a method whose fixpoint does not settle within a fixed number of steps is given up.
/// </summary>
internal sealed partial class CtorFlowAnalysis
{
    private const int MaxStackDepth = 1024;
    private const int MaxLocals = 4096;
    private const int StepsPerInstruction = 16;

    private readonly AssemblyImage _image;
    private readonly MetadataReader _md;
    private readonly MethodDefinitionHandle _method;
    private readonly IlInstruction[] _code;
    private readonly Dictionary<int, int> _indexOf;
    private readonly MethodBodyBlock _body;
    private readonly LambdaInspector _lambdas;
    private readonly CallResolver _calls;
    private readonly RuntimeTypeBuilders _builders;
    private readonly MethodSummaries _summaries;
    private readonly bool _seedSequences;
    private readonly Dictionary<int, MethodDefinitionHandle> _cachedLambdas;
    private readonly Dictionary<int, (string? Name, EntityHandle Handle, int? Count, int Flags)> _appliedTo = [];

    /// <summary>Picks left alone because the type the code names has at most one matching constructor: pick offset -> that type.</summary>
    private readonly Dictionary<int, string> _leftByCount = [];
    private readonly FlowState?[] _in;
    private readonly Dictionary<int, bool> _fieldIsLambda;
    private readonly CallerArguments _callers;
    private readonly ConstructorCounter _counter;
    private readonly List<(int From, int To)> _backEdges = [];

    /// <summary>Constructor lists the method keeps in fields it also reads (a cache: "x ??= Compute()"), by field token.</summary>
    private Dictionary<int, FlowValue> _fieldFacts = [];

    /// <param name="seedSequences">Summary mode: every sequence parameter is taken as a constructor list, to learn whether the method picks from it by position.</param>
    /// <summary>What every caller passes, when the method is analysed again knowing it (<see cref="CallerContext"/>).</summary>
    private readonly CallerContext? _context;

    private CtorFlowAnalysis(FlowServices services, MethodDefinitionHandle method, MethodBodyBlock body, IlInstruction[] code, bool seedSequences, CallerContext? context = null)
    {
        _context = context;
        _image = services.Image;
        _builders = services.Builders;
        _summaries = services.Summaries;
        _seedSequences = seedSequences;
        _md = _image.Metadata;
        _method = method;
        _body = body;
        _code = code;
        _lambdas = services.Lambdas;
        _calls = services.Calls;
        _fieldIsLambda = services.LambdaFields;
        _callers = services.Callers;
        _indexOf = new Dictionary<int, int>(code.Length);
        for (int i = 0; i < code.Length; i++)
            _indexOf[code[i].Offset] = i;
        _in = new FlowState?[code.Length];
        _cachedLambdas = FindCachedLambdas(code);
        _counter = new ConstructorCounter(_md);
        foreach (IlInstruction ins in code)
            foreach (int target in ins.SwitchTargets ?? (ins.IsBranch ? [ins.IntOperand] : []))
                if (target <= ins.Offset)
                    _backEdges.Add((target, ins.Offset));
    }

    /// <summary>
    /// Whether the method belongs to a compiler-generated type (a closure's display class, an iterator's or async method's
    /// state machine): its own fields are the user's locals, hoisted, or what it yields.
    /// </summary>
    private bool InGeneratedType => _md.GetString(_md.GetTypeDefinition(_md.GetMethodDefinition(_method).GetDeclaringType()).Name).StartsWith('<');

    /// <summary>Whether the instruction at <paramref name="offset"/> lies between a backward branch and its target: in a loop.</summary>
    private bool InLoop(int offset) => _backEdges.Any(e => e.From <= offset && offset <= e.To);

    /// <summary>
    /// Every positional pick in <paramref name="method"/>, and the constructor list it hands back (returned, or yielded by an
    /// iterator's MoveNext) for <see cref="MethodSummaries"/>; throws <see cref="BadImageFormatException"/> on malformed IL.
    /// </summary>
    /// <param name="context">What every caller passes (types only), for a method whose callers are all known; null to know nothing of them.</param>
    public static FlowResult Analyze(FlowServices services, MethodDefinitionHandle method, MethodBodyBlock body, IlInstruction[] code, CallerContext? context = null)
    {
        var analysis = new CtorFlowAnalysis(services, method, body, code, seedSequences: false, context);
        analysis.RunToFixpoint();
        return new FlowResult(analysis.CollectPicks(), analysis.HandedBack(), analysis._leftByCount.OrderBy(l => l.Key).Select(l => l.Value).ToList());
    }

    /// <summary>Summary mode: the argument a helper picks from by position when given a sequence there, or null.</summary>
    public static int? PickingArgument(FlowServices services, MethodDefinitionHandle method, MethodBodyBlock body, IlInstruction[] code)
    {
        var analysis = new CtorFlowAnalysis(services, method, body, code, seedSequences: true);
        analysis.RunToFixpoint();
        return analysis.CollectPicks().Where(p => p.ListSite < 0 && p.ListSite > CounterValue.SiteAt(0)).Select(p => (int?)(-1 - p.ListSite)).FirstOrDefault();
    }

    /// <summary>How many times the method is analysed again with the constructor lists it caches in its own fields.</summary>
    private const int FieldRounds = 2;

    private void RunToFixpoint()
    {
        // An empty body (invalid, but a helper taking a constructor list is analysed whatever its IL holds) has no picks.
        if (_code.Length == 0)
            return;
        for (int round = 0; round < FieldRounds; round++)
        {
            Array.Clear(_in);
            RunOnce();
            // "return _ctors ??= Compute();" reads the field before it stores the list: analyse again knowing what it stores.
            Dictionary<int, FlowValue> stored = StoredFields();
            if (stored.Count == 0 || stored.Count == _fieldFacts.Count && stored.All(f => _fieldFacts.TryGetValue(f.Key, out FlowValue? v) && v.Equals(f.Value)))
                break;
            _fieldFacts = stored;
        }
    }

    private void RunOnce()
    {
        MethodDefinition def = _md.GetMethodDefinition(_method);
        int argCount = Signatures.Method(_md, def).ParameterTypes.Length + ((def.Attributes & System.Reflection.MethodAttributes.Static) == 0 ? 1 : 0);
        int localCount = LocalCount();
        var work = new Stack<int>();
        Merge(0, EntryState(def, localCount, argCount), work);

        long budget = (long)_code.Length * StepsPerInstruction + 1024;
        while (work.Count > 0)
        {
            if (--budget < 0)
                throw new BadImageFormatException("the method's data flow did not settle (too complex to analyse)");
            int index = work.Pop();
            FlowState state = _in[index]!;
            IlInstruction ins = _code[index];
            foreach ((int target, FlowState next) in Step(ins, index, state))
                Merge(target, next, work);
            foreach (ExceptionRegion region in Handlers(ins.Offset))
            {
                bool catches = region.Kind is ExceptionRegionKind.Catch or ExceptionRegionKind.Filter;
                Merge(IndexAt(region.HandlerOffset), state.ForHandler(catches), work);
                if (region.Kind == ExceptionRegionKind.Filter)
                    Merge(IndexAt(region.FilterOffset), state.ForHandler(true), work);
            }
        }
    }

    /// <summary>
    /// Parameters that hold constructors are lists of unknown order (a helper picking from what its caller
    /// passed); each gets its own negative site so that length checks on it narrow only it.
    /// </summary>
    private FlowState EntryState(MethodDefinition def, int localCount, int argCount)
    {
        FlowState state = FlowState.Entry(localCount, argCount, _context is null ? _fieldFacts : _context.Fields.Concat(_fieldFacts).GroupBy(f => f.Key).ToDictionary(g => g.Key, g => g.Last().Value));
        var types = Signatures.Method(_md, def).ParameterTypes;
        int first = argCount - types.Length;
        if (first == 1)
            state = state.WithArg(0, ThisValue.Instance, state.Stack);
        for (int k = 0; k < types.Length; k++)
        {
            // An out or ref parameter holds an address: what the method stores through it leaves the method too.
            if (types[k].EndsWith('&'))
                state = state.WithArg(first + k, new AddressValue(true, first + k), state.Stack);
            else if (types[k] is "System.Type" or "System.Reflection.TypeInfo")
                state = state.WithArg(first + k, new TypeArgumentValue(first + k), state.Stack);
            else if (IsLambdaType(types[k]))
                state = state.WithArg(first + k, LambdaValue.Instance, state.Stack);
            else if (CtorCollectionTypes.Holds(types[k]) || _seedSequences && CtorCollectionTypes.IsSequence(types[k]))
                state = state.WithArg(first + k, new CtorList(ParameterSite(first + k), CtorCollectionTypes.IsIndexable(types[k]), null, $"parameter {k + 1}"), state.Stack);
        }
        foreach ((int index, FlowValue passed) in _context?.Args ?? new Dictionary<int, FlowValue>())
            state = state.WithArg(index, passed, state.Stack);
        return state;
    }

    /// <summary>The site of argument <paramref name="index"/>: below zero, where no IL offset is.</summary>
    private static int ParameterSite(int index) => -1 - index;

    private void Merge(int index, FlowState state, Stack<int> work)
    {
        if (state.Stack.Length > MaxStackDepth)
            throw new BadImageFormatException($"evaluation stack deeper than {MaxStackDepth}");
        FlowState? old = _in[index];
        FlowState merged = old is null ? state : FlowState.Join(old, state) ?? throw new BadImageFormatException($"inconsistent stack depth at IL_{_code[index].Offset:x4}");
        if (old is not null && merged.SameAs(old))
            return;
        _in[index] = merged;
        work.Push(index);
    }

    private int IndexAt(int offset) =>
        _indexOf.TryGetValue(offset, out int index) ? index : throw new BadImageFormatException($"branch to IL_{offset:x4}, which is not an instruction");

    private IEnumerable<ExceptionRegion> Handlers(int offset)
    {
        foreach (ExceptionRegion region in _body.ExceptionRegions)
            if (offset >= region.TryOffset && offset < region.TryOffset + region.TryLength)
                yield return region;
    }

    private int LocalCount()
    {
        if (_body.LocalSignature.IsNil)
            return 0;
        StandaloneSignature sig = _md.GetStandaloneSignature(_body.LocalSignature);
        int count = Signatures.Locals(_md, sig).Length;
        return count <= MaxLocals ? count : throw new BadImageFormatException($"{count} locals exceed the limit of {MaxLocals}");
    }

    /// <summary>
    /// The C# compiler caches non-capturing lambdas in static fields: "ldsfld cache; dup; brtrue; pop; ldsfld
    /// instance; ldftn lambda; newobj; dup; stsfld cache". Map each cache field to its lambda up front, so the
    /// value loaded on the fast path is known too.
    /// </summary>
    private Dictionary<int, MethodDefinitionHandle> FindCachedLambdas(IlInstruction[] code)
    {
        var map = new Dictionary<int, MethodDefinitionHandle>();
        for (int i = 0; i < code.Length; i++)
        {
            if (code[i].OpCode != ILOpCode.Ldftn || LocalMethods.Resolve(_md, code[i].Token) is not { } lambda)
                continue;
            for (int j = i + 1; j < Math.Min(code.Length, i + 4); j++)
            {
                if (code[j].OpCode == ILOpCode.Stsfld)
                {
                    map[code[j].Token] = lambda;
                    break;
                }
            }
        }
        return map;
    }
}
