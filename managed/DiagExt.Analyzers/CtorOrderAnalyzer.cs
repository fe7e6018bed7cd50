using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using DiagExt.Core.Detectors.CtorOrder.Model;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace DiagExt.Analyzers;

/// <summary>
/// DXC0001: a constructor taken by its position in Type.GetConstructors() / TypeInfo.DeclaredConstructors ([0], First,
/// Last, ElementAt, MaxBy/MinBy, or a foreach that returns what it made from the first that matched), directly or after
/// order-keeping steps, Where filters and sorts whose key can tie (Array.Sort/List.Sort in place too). Not reported:
/// Single, a sort by MetadataToken, a predicate that matches one constructor (exact parameter types, none, a marker
/// attribute no two constructors of the named type wear), a length check proving one, a type the code knows (typeof,
/// MakeGenericType's definition, GetType() of a sealed type) with at most one matching constructor (of the arity the
/// predicate asks for), a delegate type the code does not name (a LambdaExpression's Type, Expression.GetFuncType):
/// one constructor; types named on each side of a conditional are all counted. The IL scan
/// (diagext ctororder --assembly) uses the same definition for binaries; this runs where the source is, in the IDE and CI.
/// Severity: dotnet_diagnostic.DXC0001.severity in .editorconfig.
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class CtorOrderAnalyzer : DiagnosticAnalyzer
{
    /// <summary>Diagnostic property: the parameter types (fully qualified, '|' between) of the constructor the code means, for the code fix.</summary>
    public const string ParameterTypesKey = "ParameterTypes";

    public static readonly DiagnosticDescriptor Rule = new(
        OrderDependentPick.DiagnosticId,
        OrderDependentPick.Title,
        "'{0}' takes a constructor by its position in reflection's list, whose order .NET does not specify{1}",
        "Reliability",
        DiagnosticSeverity.Warning,
        isEnabledByDefault: true,
        description: OrderDependentPick.Why + "; " + OrderDependentPick.Fix + ".",
        helpLinkUri: OrderDependentPick.HelpLink);

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics => ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.EnableConcurrentExecution();
        context.RegisterOperationAction(AnalyzeInvocation, OperationKind.Invocation);
        context.RegisterOperationAction(AnalyzeElement, OperationKind.ArrayElementReference, OperationKind.PropertyReference);
        context.RegisterOperationAction(AnalyzeLoop, OperationKind.Loop);
    }

    private static void AnalyzeInvocation(OperationAnalysisContext context)
    {
        var call = (IInvocationOperation)context.Operation;
        string name = call.TargetMethod.Name;
        if (call.TargetMethod.ContainingType?.ToDisplayString() != "System.Linq.Enumerable" || call.Arguments.Length == 0
            || !OrderDependentPick.PositionalPicks.Contains(name) && !OrderDependentPick.PicksByKey.Contains(name))
            return;
        if (ConstructorList.Trace(call.Arguments[0].Value) is not { } list)
            return;
        bool byKey = OrderDependentPick.PicksByKey.Contains(name);
        if (name.StartsWith("ElementAt", System.StringComparison.Ordinal) && call.Arguments.Length == 2 && !call.Arguments[1].Value.ConstantValue.HasValue)
            return; // an index that varies: a loop visiting every constructor
        IOperation? predicate = !byKey && !name.StartsWith("ElementAt", System.StringComparison.Ordinal) && call.Arguments.Length == 2 ? call.Arguments[1].Value : null;
        if (byKey && ConstructorList.Mentions(call.Arguments[1].Value, OrderDependentPick.UniqueKey))
            return;
        bool last = name.StartsWith("Last", System.StringComparison.Ordinal);
        int position = name.StartsWith("ElementAt", System.StringComparison.Ordinal) && call.Arguments[1].Value.ConstantValue is { HasValue: true, Value: int k } ? k : 0;
        Report(context, call, list, predicate, byKey ? null : (last ? -1 : position));
    }

    private static void AnalyzeElement(OperationAnalysisContext context)
    {
        (IOperation? collection, IOperation? index) = context.Operation switch
        {
            IArrayElementReferenceOperation array when array.Indices.Length == 1 => (array.ArrayReference, array.Indices[0]),
            IPropertyReferenceOperation { Property.IsIndexer: true } indexer when indexer.Arguments.Length == 1 => (indexer.Instance, indexer.Arguments[0].Value),
            _ => (null, null),
        };
        if (collection is null || index is null || index.ConstantValue is not { HasValue: true, Value: int position })
            return;
        // The element written to is not a pick.
        if (context.Operation.Parent is ISimpleAssignmentOperation assignment && assignment.Target == context.Operation)
            return;
        if (ConstructorList.Trace(collection) is { } list)
            Report(context, context.Operation, list, predicate: null, position);
    }

    /// <summary>
    /// foreach over a constructor list that, from inside a test, returns the constructor or what it made from it, or keeps
    /// that in a local declared before the loop and breaks out (the code after the loop reads the first that matched).
    /// </summary>
    private static void AnalyzeLoop(OperationAnalysisContext context)
    {
        if (context.Operation is not IForEachLoopOperation loop || ConstructorList.Trace(loop.Collection) is not { } list)
            return;
        ILocalSymbol? element = loop.Locals.FirstOrDefault();
        if (element is null)
            return;
        HashSet<ILocalSymbol> made = MadeFrom(loop, element);
        foreach (IOperation leaving in loop.Body.Descendants())
        {
            bool picks = leaving switch
            {
                IReturnOperation returned => returned.ReturnedValue is not null && References(returned.ReturnedValue, made),
                IBranchOperation { BranchKind: BranchKind.Break } left => SymbolEqualityComparer.Default.Equals(left.Target, loop.ExitLabel) && KeepsBefore(left, loop, made),
                _ => false,
            };
            if (!picks)
                continue;
            List<IOperation> tests = Conditions(leaving, loop);
            if (tests.Count == 0 || tests.Any(Predicates.SelectsAtMostOne))
                continue;
            Report(context, loop, list, predicate: null, position: null, at: loop.Syntax.GetFirstToken().GetLocation());
            return;
        }
    }

    /// <summary>The loop's element and the locals of its body declared from it (its parameters, an array sized from them).</summary>
    private static HashSet<ILocalSymbol> MadeFrom(IForEachLoopOperation loop, ILocalSymbol element)
    {
        var made = new HashSet<ILocalSymbol>(SymbolEqualityComparer.Default) { element };
        foreach (IVariableDeclaratorOperation declared in loop.Body.Descendants().OfType<IVariableDeclaratorOperation>())
        {
            if (declared.GetVariableInitializer()?.Value is { } value && References(value, made))
                made.Add(declared.Symbol);
        }
        return made;
    }

    /// <summary>
    /// Whether the statements before a break, in its block, store what the loop made from its element in a local declared
    /// outside the loop that is read after it.
    /// </summary>
    private static bool KeepsBefore(IBranchOperation left, IForEachLoopOperation loop, HashSet<ILocalSymbol> made)
    {
        if (left.Parent is not IBlockOperation block)
            return false;
        foreach (IOperation statement in block.Operations.TakeWhile(s => s != left))
        {
            if (statement is IExpressionStatementOperation { Operation: ISimpleAssignmentOperation { Target: ILocalReferenceOperation kept } assignment }
                && !made.Contains(kept.Local) && !loop.Body.Syntax.Span.Contains(kept.Local.Locations.FirstOrDefault()?.SourceSpan ?? default)
                && References(assignment.Value, made) && ReadAfter(kept.Local, loop))
                return true;
        }
        return false;
    }

    /// <summary>Whether the local is read somewhere after the loop in the same body.</summary>
    private static bool ReadAfter(ILocalSymbol local, IOperation loop)
    {
        IOperation root = loop;
        while (root.Parent is not null)
            root = root.Parent;
        return root.Descendants().OfType<ILocalReferenceOperation>().Any(r =>
            SymbolEqualityComparer.Default.Equals(r.Local, local) && r.Syntax.SpanStart >= loop.Syntax.Span.End
            && !(r.Parent is ISimpleAssignmentOperation assigned && assigned.Target == r));
    }

    private static void Report(OperationAnalysisContext context, IOperation pick, ConstructorList list, IOperation? predicate, int? position, Location? at = null)
    {
        if (list.Sorted && !list.SortCanTie)
            return;
        // A marker attribute matches one constructor unless the type the code names has two wearing it.
        int? marked = predicate is not null && Predicates.MarkerAttribute(predicate) is { } attribute ? list.CountMarked(attribute) : null;
        if (marked is not >= 2 && (predicate is not null && Predicates.SelectsAtMostOne(predicate) || list.Filters.Any(Predicates.SelectsAtMostOne)))
            return;
        int? arity = (predicate ?? list.Filters.LastOrDefault()) is { } p ? Predicates.Arity(p) : null;
        if (list.Count(arity ?? -1) is <= 1)
            return;
        if (list.Local is { } local && LengthChecked(pick, local))
            return;
        // One line: a loop's code spans several, and a message is read in one (the error list, a build log).
        string code = string.Join(" ", pick.Syntax.ToString().Split((char[]?)null, System.StringSplitOptions.RemoveEmptyEntries));
        if (code.Length > 80)
            code = code.Substring(0, 77) + "...";
        string proven = list.Type is null ? ""
            : marked is >= 2 ? $" ({list.Type.ToDisplayString()} has {marked} that match)"
            : list.Count(arity ?? -1) is int n ? $" ({list.Type.ToDisplayString()} has {n} that match)" : "";
        if (list.SortedInPlace)
            proven += " (sorted in place by an unstable sort: tied constructors come out in an order neither reflection nor the sort promises)";
        ImmutableDictionary<string, string?> properties = ImmutableDictionary<string, string?>.Empty;
        if (FixTypes(list, predicate, position) is { } types)
            properties = properties.Add(ParameterTypesKey, types);
        context.ReportDiagnostic(Diagnostic.Create(Rule, at ?? pick.Syntax.GetLocation(), properties, code, proven));
    }

    /// <summary>
    /// The parameter types of the constructor the code means, when a fix can say it: GetConstructors() on a type the code
    /// names, read directly, the first (or last) in declaration order, which is what .NET 7 and later return and what
    /// the code was most likely tried with. Null when the constructor or its parameter types cannot be written.
    /// </summary>
    private static string? FixTypes(ConstructorList list, IOperation? predicate, int? position)
    {
        if (predicate is not null || !list.Direct || position is not (0 or -1) || list.Flags != (ConstructorList.Public | ConstructorList.Instance)
            || list.Source is not IInvocationOperation { Arguments.Length: 0 } || list.Type is not INamedTypeSymbol)
            return null;
        IReadOnlyList<IMethodSymbol> constructors = list.Constructors();
        if (constructors.Count == 0)
            return null;
        IMethodSymbol meant = position == 0 ? constructors[0] : constructors[constructors.Count - 1];
        if (meant.Parameters.Any(p => p.RefKind != RefKind.None || ContainsTypeParameter(p.Type)))
            return null;
        return string.Join("|", meant.Parameters.Select(p => p.Type.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat)));
    }

    private static bool ContainsTypeParameter(ITypeSymbol type) => type switch
    {
        ITypeParameterSymbol => true,
        IArrayTypeSymbol array => ContainsTypeParameter(array.ElementType),
        INamedTypeSymbol named => named.TypeArguments.Any(ContainsTypeParameter),
        IPointerTypeSymbol => true,
        _ => false,
    };

    /// <summary>
    /// Whether a length check on the local proves at most one: an enclosing "if (x.Length == 1)", or an earlier
    /// "if (x.Length != 1) throw/return" in the same block.
    /// </summary>
    private static bool LengthChecked(IOperation pick, ILocalSymbol local)
    {
        for (IOperation? node = pick; node?.Parent is { } parent; node = parent)
        {
            if (parent is IConditionalOperation conditional && conditional.WhenTrue == node && Tests(conditional.Condition, local, oneWhenTrue: true))
                return true;
            if (parent is IBlockOperation block)
            {
                foreach (IOperation statement in block.Operations.TakeWhile(s => s != node))
                {
                    if (statement is IConditionalOperation { WhenFalse: null } check && Tests(check.Condition, local, oneWhenTrue: false) && Leaves(check.WhenTrue))
                        return true;
                }
            }
        }
        return false;
    }

    /// <summary>"x.Length == 1" (<paramref name="oneWhenTrue"/>) or "x.Length != 1" / "x.Length &gt; 1" (at most one when false).</summary>
    private static bool Tests(IOperation condition, ILocalSymbol local, bool oneWhenTrue)
    {
        if (condition is not IBinaryOperation binary)
            return false;
        (IOperation length, IOperation constant) = binary.RightOperand.ConstantValue.HasValue ? (binary.LeftOperand, binary.RightOperand) : (binary.RightOperand, binary.LeftOperand);
        if (constant.ConstantValue.Value is not int k || length is not IPropertyReferenceOperation { Property.Name: "Length" or "Count", Instance: ILocalReferenceOperation reference }
            || !SymbolEqualityComparer.Default.Equals(reference.Local, local))
            return false;
        return oneWhenTrue
            ? binary.OperatorKind == BinaryOperatorKind.Equals && k == 1 || binary.OperatorKind == BinaryOperatorKind.LessThanOrEqual && k <= 1
            : binary.OperatorKind == BinaryOperatorKind.NotEquals && k == 1 || binary.OperatorKind == BinaryOperatorKind.GreaterThan && k == 1;
    }

    private static bool Leaves(IOperation operation) => operation switch
    {
        IThrowOperation or IReturnOperation => true,
        IExpressionStatementOperation { Operation: IThrowOperation } => true,
        IBlockOperation block => block.Operations.Length > 0 && Leaves(block.Operations[block.Operations.Length - 1]),
        _ => false,
    };

    private static bool References(IOperation operation, HashSet<ILocalSymbol> locals) =>
        operation.DescendantsAndSelf().OfType<ILocalReferenceOperation>().Any(r => locals.Contains(r.Local));

    /// <summary>The conditions of the if-statements between the loop and the return that the return is inside of.</summary>
    private static List<IOperation> Conditions(IOperation returned, IOperation loop)
    {
        var conditions = new List<IOperation>();
        for (IOperation? node = returned; node is not null && node != loop; node = node.Parent)
        {
            if (node.Parent is IConditionalOperation conditional && conditional.Condition != node)
                conditions.Add(conditional.Condition);
        }
        return conditions;
    }
}
