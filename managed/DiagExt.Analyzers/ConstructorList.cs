using System.Collections.Generic;
using System.Linq;
using DiagExt.Core.Detectors.CtorOrder.Model;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace DiagExt.Analyzers;

/// <summary>
/// What an expression is, traced back through the operations that produced it: a constructor list from GetConstructors /
/// DeclaredConstructors (the type it was asked of, when the code names it, and the binding flags), through order-keeping
/// steps, Where filters and sorts, and locals assigned once.
/// </summary>
internal sealed class ConstructorList
{
    /// <summary>How many locals and steps a trace follows back.</summary>
    private const int MaxSteps = 32;

    private ConstructorList(IOperation source, ITypeSymbol? type, int flags)
    {
        Source = source;
        Type = type;
        Flags = flags;
    }

    /// <summary>The GetConstructors call or DeclaredConstructors reference.</summary>
    public IOperation Source { get; }

    /// <summary>The type the code asks (typeof(T)), or null when it is not named.</summary>
    public ITypeSymbol? Type { get; }

    /// <summary>BindingFlags as a number (Public 16, NonPublic 32, Instance 4, Static 8); -1 when not a constant.</summary>
    public int Flags { get; }

    /// <summary>Where() predicates applied since the source: a pick after them picks what they let through.</summary>
    public List<IOperation> Filters { get; } = new();

    /// <summary>Whether the list was sorted, and whether every sort key can tie (a tie keeps reflection's order).</summary>
    public bool Sorted { get; private set; }

    public bool SortCanTie { get; private set; }

    /// <summary>Whether the list was sorted in place by Array.Sort or List.Sort, which are unstable: a tie is not even kept in reflection's order.</summary>
    public bool SortedInPlace { get; private set; }

    /// <summary>Whether an order-keeping step (Select, ToList, ...) or a sort stands between the source and the pick.</summary>
    public bool Direct { get; private set; } = true;

    /// <summary>
    /// Whether the type is a delegate type the code does not name (a LambdaExpression's Type, Expression.GetFuncType...):
    /// every delegate type has one constructor, public, (object, IntPtr).
    /// </summary>
    public bool IsDelegate { get; private set; }

    /// <summary>
    /// Whether the code tested, around the list's source, that the type wears [CompilerGenerated] (an anonymous type, a
    /// closure, a state machine): C# gives each one public instance constructor.
    /// </summary>
    public bool IsCompilerGenerated { get; private set; }

    /// <summary>The types named on each side of a conditional ("c ? typeof(A) : typeof(B)"), when <see cref="Type"/> is not one type.</summary>
    public IReadOnlyList<INamedTypeSymbol>? Alternatives { get; private set; }

    /// <summary>The local the list was read from, if any (for a length check on it).</summary>
    public ILocalSymbol? Local { get; private set; }

    public const int Public = 16, NonPublic = 32, Instance = 4, Static = 8;

    public static ConstructorList? Trace(IOperation? operation)
    {
        var steps = new List<IOperation>();
        ILocalSymbol? local = null;
        for (int i = 0; i < MaxSteps && operation is not null; i++)
        {
            switch (operation)
            {
                case IConversionOperation conversion:
                    operation = conversion.Operand;
                    continue;
                case IParenthesizedOperation parenthesized:
                    operation = parenthesized.Operand;
                    continue;
                case ILocalReferenceOperation reference:
                    local ??= reference.Local;
                    operation = SingleAssignment(reference);
                    continue;
                case IObjectCreationOperation creation when creation.Arguments.Length == 1 && IsListOfConstructors(creation.Type):
                    steps.Add(creation);
                    operation = creation.Arguments[0].Value;
                    continue;
                // A helper picking from what its caller passed (ConstructorInfo[], IEnumerable<ConstructorInfo>...): its order is the caller's reflection order.
                case IParameterReferenceOperation parameter when HoldsConstructors(parameter.Parameter.Type):
                    return Make(parameter, null, -1, steps, local);
                case IPropertyReferenceOperation property when IsSourceMember(property.Property):
                    return Make(property, property.Instance, -1, steps, local);
                case IInvocationOperation call when IsSourceMember(call.TargetMethod):
                    return Make(call, call.Instance ?? (call.Arguments.Length > 0 ? call.Arguments[0].Value : null), FlagsOf(call), steps, local);
                case IInvocationOperation call when IsEnumerable(call.TargetMethod) && call.Arguments.Length > 0
                    && (OrderDependentPick.OrderPreserving.Contains(call.TargetMethod.Name) || OrderDependentPick.Sorts.Contains(call.TargetMethod.Name)):
                    steps.Add(call);
                    operation = call.Arguments[0].Value;
                    continue;
                default:
                    return null;
            }
        }
        return null;
    }

    private static ConstructorList Make(IOperation source, IOperation? receiver, int flags, List<IOperation> steps, ILocalSymbol? local)
    {
        bool declared = source is IPropertyReferenceOperation;
        (ITypeSymbol? type, bool isDelegate, List<INamedTypeSymbol>? eachSide) = NamedType(receiver);
        if (type is null && !isDelegate && eachSide is null)
            type = TestedDefinition(source, receiver);
        var list = new ConstructorList(source, type, declared ? Public | NonPublic | Instance | Static : flags)
        {
            Local = local,
            IsDelegate = isDelegate,
            Alternatives = eachSide,
            IsCompilerGenerated = type is null && TestedCompilerGenerated(source, receiver),
        };
        if (local is not null && SortedInPlaceBy(source, local, out IOperation? comparison))
        {
            list.Direct = false;
            list.Sorted = list.SortedInPlace = true;
            list.SortCanTie = comparison is null || !Mentions(comparison, OrderDependentPick.UniqueKey);
        }
        // The steps were collected from the pick back to the source: replay them in the order the code applies them.
        for (int i = steps.Count - 1; i >= 0; i--)
        {
            list.Direct = false;
            if (steps[i] is not IInvocationOperation call)
                continue;
            string name = call.TargetMethod.Name;
            if (name == "Where" && call.Arguments.Length == 2)
                list.Filters.Add(call.Arguments[1].Value);
            if (OrderDependentPick.Sorts.Contains(name))
            {
                bool unique = call.Arguments.Length == 2 && Mentions(call.Arguments[1].Value, OrderDependentPick.UniqueKey);
                bool thenBy = name.StartsWith("ThenBy", System.StringComparison.Ordinal);
                list.SortCanTie = thenBy && list.Sorted && !list.SortCanTie ? false : !unique;
                list.Sorted = true;
            }
        }
        return list;
    }

    /// <summary>
    /// Whether Array.Sort(local, comparison) or local.Sort(comparison) is called anywhere in the method, and with what
    /// comparison (null for none: ConstructorInfo is not IComparable, so that sort throws unless the list has one element).
    /// </summary>
    private static bool SortedInPlaceBy(IOperation anywhere, ILocalSymbol local, out IOperation? comparison)
    {
        comparison = null;
        foreach (IInvocationOperation call in Root(anywhere).Descendants().OfType<IInvocationOperation>())
        {
            if (call.TargetMethod.Name != "Sort")
                continue;
            string container = call.TargetMethod.ContainingType?.ToDisplayString() ?? "";
            IOperation? sorted = container == "System.Array" && call.Arguments.Length > 0 ? call.Arguments[0].Value
                : container.StartsWith("System.Collections.Generic.List<", System.StringComparison.Ordinal) ? call.Instance : null;
            while (sorted is IConversionOperation conversion)
                sorted = conversion.Operand;
            if (sorted is ILocalReferenceOperation reference && SymbolEqualityComparer.Default.Equals(reference.Local, local))
            {
                comparison = call.Arguments.Skip(container == "System.Array" ? 1 : 0).Select(a => a.Value).FirstOrDefault();
                return true;
            }
        }
        return false;
    }

    private static IOperation Root(IOperation operation)
    {
        while (operation.Parent is not null)
            operation = operation.Parent;
        return operation;
    }

    /// <summary>How many constructors of the named type the list can hold, of <paramref name="arity"/> parameters when not negative.</summary>
    public int? Count(int arity = -1)
    {
        if (IsDelegate && Flags >= 0)
            return (Flags & Public) != 0 && (Flags & Instance) != 0 && (arity < 0 || arity == 2) ? 1 : 0;
        // One constructor, of an arity the code cannot know (an anonymous type's is its property count): at most one matches.
        if (IsCompilerGenerated && Flags >= 0 && (Flags & Static) == 0)
            return (Flags & Public) != 0 ? 1 : 0;
        if (Alternatives is { } types && Flags >= 0)
            return types.Max(t => CountOf(t, arity));
        if (Type is not INamedTypeSymbol named || Flags < 0)
            return null;
        return CountOf(named, arity);
    }

    private int CountOf(INamedTypeSymbol named, int arity) =>
        named.InstanceConstructors.Concat(named.StaticConstructors).Count(c => Matches(c, Flags) && (arity < 0 || c.Parameters.Length == arity));

    /// <summary>How many of the named type's listed constructors wear <paramref name="attribute"/> (or an attribute derived from it).</summary>
    public int? CountMarked(INamedTypeSymbol attribute) =>
        Type is INamedTypeSymbol && Flags >= 0
            ? Constructors().Count(c => c.GetAttributes().Any(a => DerivesFrom(a.AttributeClass, attribute)))
            : null;

    private static bool DerivesFrom(INamedTypeSymbol? type, INamedTypeSymbol wanted)
    {
        for (int i = 0; i < MaxSteps && type is not null; i++, type = type.BaseType)
            if (SymbolEqualityComparer.Default.Equals(type, wanted))
                return true;
        return false;
    }

    /// <summary>The constructors of the named type the list holds, in declaration order.</summary>
    public IReadOnlyList<IMethodSymbol> Constructors() =>
        Type is INamedTypeSymbol named && Flags >= 0
            ? named.InstanceConstructors.Concat(named.StaticConstructors).Where(c => Matches(c, Flags)).OrderBy(DeclarationOrder).ToList()
            : new List<IMethodSymbol>();

    private static int DeclarationOrder(IMethodSymbol ctor) =>
        ctor.ContainingType.GetMembers().IndexOf(ctor);

    private static bool Matches(IMethodSymbol ctor, int flags)
    {
        bool isPublic = ctor.DeclaredAccessibility == Accessibility.Public;
        bool accessOk = isPublic ? (flags & Public) != 0 : (flags & NonPublic) != 0;
        bool kindOk = ctor.IsStatic ? (flags & Static) != 0 : (flags & Instance) != 0;
        // A struct's implicit parameterless constructor is not in reflection's list.
        return accessOk && kindOk && !(ctor.IsImplicitlyDeclared && ctor.ContainingType.IsValueType && ctor.Parameters.Length == 0);
    }

    /// <summary>
    /// The type the receiver is, when the code shows it; or that it is some delegate type; or, for "c ? typeof(A) :
    /// typeof(B)" (nested too), the type named on each side, when every side names one.
    /// </summary>
    private static (ITypeSymbol? Type, bool IsDelegate, List<INamedTypeSymbol>? EachSide) NamedType(IOperation? receiver, int depth = 0)
    {
        for (int i = 0; i < MaxSteps && receiver is not null; i++)
        {
            switch (receiver)
            {
                case ITypeOfOperation typeOf:
                    return (typeOf.TypeOperand is INamedTypeSymbol { IsUnboundGenericType: false } or IArrayTypeSymbol ? typeOf.TypeOperand : null, false, null);
                // typeof(G<>).MakeGenericType(...): every instantiation has the constructors G declares.
                case IInvocationOperation { TargetMethod.Name: "MakeGenericType", Instance: ITypeOfOperation { TypeOperand: INamedTypeSymbol { IsUnboundGenericType: true } generic } }:
                    return (generic.OriginalDefinition, false, null);
                // x.GetType() where x's type can have no subclass (sealed, a struct, an anonymous type): that type exactly.
                case IInvocationOperation { TargetMethod.Name: "GetType", Arguments.Length: 0, Instance: { } instance }
                    when ExactType(instance) is { } exact:
                    return (exact, false, null);
                // lambda.Type: Expression<TDelegate>'s is TDelegate, a LambdaExpression's some delegate type.
                case IPropertyReferenceOperation { Property.Name: "Type", Instance: { } lambda } when IsLambda(lambda.Type, out INamedTypeSymbol? delegateType):
                    return (delegateType, delegateType is null, null);
                // Expression.GetFuncType(...), GetActionType(...), GetDelegateType(...): delegate types by construction.
                case IInvocationOperation { TargetMethod: { Name: "GetFuncType" or "GetActionType" or "GetDelegateType", IsStatic: true } factory }
                    when factory.ContainingType?.ToDisplayString() == "System.Linq.Expressions.Expression":
                    return (null, true, null);
                // c ? typeof(A) : typeof(B): each side's type is counted.
                case IConditionalOperation { WhenFalse: { } whenFalse } conditional when depth < MaxSteps:
                    return (null, false, Side(conditional.WhenTrue, depth) is { } left && Side(whenFalse, depth) is { } right ? left.Concat(right).ToList() : null);
                case IConversionOperation or IInvocationOperation { TargetMethod.Name: "GetTypeInfo" }:
                    receiver = SameType(receiver);
                    continue;
                case ILocalReferenceOperation local:
                    receiver = SingleAssignment(local);
                    continue;
                default:
                    return (null, false, null);
            }
        }
        return (null, false, null);
    }

    /// <summary>
    /// "if (t.IsDefined(typeof(CompilerGeneratedAttribute), false) ...)" or "Attribute.IsDefined(t, typeof(...))" around
    /// <paramref name="source"/>, on the edge where it holds, about the variable the constructors are asked of.
    /// </summary>
    private static bool TestedCompilerGenerated(IOperation source, IOperation? receiver) =>
        VariableOf(receiver) is { } variable && HoldingAround(source).Any(c => TestsCompilerGenerated(c, variable));

    /// <summary>
    /// "if (t.IsGenericType &amp;&amp; t.GetGenericTypeDefinition() == typeof(G&lt;&gt;))" around <paramref name="source"/>, on the edge
    /// where it holds, about the variable the constructors are asked of: t is a G&lt;...&gt;, whose constructors are G's.
    /// </summary>
    private static INamedTypeSymbol? TestedDefinition(IOperation source, IOperation? receiver) =>
        VariableOf(receiver) is { } variable ? HoldingAround(source).Select(c => DefinitionTestedOn(c, variable)).FirstOrDefault(d => d is not null) : null;

    /// <summary>Each conjunct of the conditions of the "if"s and "?:"s whose true side holds <paramref name="source"/>: what holds there.</summary>
    private static IEnumerable<IOperation> HoldingAround(IOperation source)
    {
        for (IOperation? node = source; node?.Parent is { } parent; node = parent)
            if (parent is IConditionalOperation conditional && conditional.WhenTrue == node)
                foreach (IOperation conjunct in Conjuncts(conditional.Condition))
                    yield return conjunct;
    }

    private static INamedTypeSymbol? DefinitionTestedOn(IOperation test, ISymbol variable)
    {
        if (test is not IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals } equals)
            return null;
        foreach ((IOperation one, IOperation other) in new[] { (equals.LeftOperand, equals.RightOperand), (equals.RightOperand, equals.LeftOperand) })
        {
            if (Unconverted(one) is IInvocationOperation { TargetMethod.Name: "GetGenericTypeDefinition" } call
                && SymbolEqualityComparer.Default.Equals(VariableOf(call.Instance), variable)
                && Unconverted(other) is ITypeOfOperation { TypeOperand: INamedTypeSymbol { IsUnboundGenericType: true } generic })
                return generic.OriginalDefinition;
        }
        return null;
    }

    private static IOperation Unconverted(IOperation operation)
    {
        for (int i = 0; i < MaxSteps && operation is IConversionOperation conversion; i++)
            operation = conversion.Operand;
        return operation;
    }

    private static IEnumerable<IOperation> Conjuncts(IOperation condition) =>
        condition is IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalAnd } and
            ? Conjuncts(and.LeftOperand).Concat(Conjuncts(and.RightOperand))
            : new[] { condition };

    private static bool TestsCompilerGenerated(IOperation test, ISymbol variable)
    {
        if (test is not IInvocationOperation { TargetMethod.Name: "IsDefined" } call)
            return false;
        (IOperation? tested, IOperation? attribute) = call.Instance is { } instance
            ? (instance, call.Arguments.Length > 0 ? call.Arguments[0].Value : null)
            : (call.Arguments.Length > 1 ? call.Arguments[0].Value : null, call.Arguments.Length > 1 ? call.Arguments[1].Value : null);
        return attribute is ITypeOfOperation { TypeOperand: var named } && named.ToDisplayString() == OrderDependentPick.CompilerGeneratedAttribute
            && SymbolEqualityComparer.Default.Equals(VariableOf(tested), variable);
    }

    /// <summary>What a conversion or GetTypeInfo() (typeof(T).GetTypeInfo(): the same type) is applied to.</summary>
    private static IOperation? SameType(IOperation operation) => operation switch
    {
        IConversionOperation conversion => conversion.Operand,
        IInvocationOperation info => info.Instance ?? (info.Arguments.Length > 0 ? info.Arguments[0].Value : null),
        _ => null,
    };

    /// <summary>The parameter or local an expression reads (through conversions and GetTypeInfo()).</summary>
    private static ISymbol? VariableOf(IOperation? operation)
    {
        for (int i = 0; i < MaxSteps && operation is not null; i++)
        {
            switch (operation)
            {
                case IConversionOperation or IInvocationOperation { TargetMethod.Name: "GetTypeInfo" }:
                    operation = SameType(operation);
                    continue;
                case IParameterReferenceOperation parameter:
                    return parameter.Parameter;
                case ILocalReferenceOperation local:
                    return local.Local;
                default:
                    return null;
            }
        }
        return null;
    }

    private static List<INamedTypeSymbol>? Side(IOperation side, int depth) => NamedType(side, depth + 1) switch
    {
        (INamedTypeSymbol named, _, _) => new List<INamedTypeSymbol> { named },
        (_, _, { } eachSide) => eachSide,
        _ => null,
    };

    /// <summary>
    /// Whether a static type derives from LambdaExpression, and its delegate type when Expression&lt;TDelegate&gt; names
    /// one (<paramref name="delegateType"/>; null when only "some delegate type" is known).
    /// </summary>
    private static bool IsLambda(ITypeSymbol? type, out INamedTypeSymbol? delegateType)
    {
        delegateType = null;
        for (int i = 0; i < MaxSteps && type is not null; i++, type = type.BaseType)
        {
            string name = type.OriginalDefinition.ToDisplayString();
            if (name == "System.Linq.Expressions.Expression<TDelegate>" && type is INamedTypeSymbol { TypeArguments.Length: 1 } expression
                && expression.TypeArguments[0] is INamedTypeSymbol { TypeKind: TypeKind.Delegate } named)
                delegateType = named;
            if (name is "System.Linq.Expressions.LambdaExpression" or "System.Linq.Expressions.Expression<TDelegate>")
                return true;
        }
        return false;
    }

    /// <summary>The static type of an expression when its run-time type must be the same: sealed, a struct, anonymous.</summary>
    private static ITypeSymbol? ExactType(IOperation instance)
    {
        while (instance is IConversionOperation { IsImplicit: true } boxing)
            instance = boxing.Operand; // a struct boxed to call GetType
        return instance.Type is INamedTypeSymbol { TypeKind: TypeKind.Class or TypeKind.Struct, IsSealed: true, IsUnboundGenericType: false } named
            && named.SpecialType != SpecialType.System_Object ? named : null;
    }

    private static int FlagsOf(IInvocationOperation call)
    {
        IArgumentOperation? flags = call.Arguments.FirstOrDefault(a => a.Parameter?.Type.Name == "BindingFlags");
        if (flags is null)
            return Public | Instance;
        return flags.Value.ConstantValue is { HasValue: true, Value: int value } ? value : -1;
    }

    private static bool IsSourceMember(ISymbol member) =>
        OrderDependentPick.IsSource(member.ContainingType?.ToDisplayString() ?? "", member.Name);

    private static bool IsEnumerable(IMethodSymbol method) => method.ContainingType?.ToDisplayString() == "System.Linq.Enumerable";

    private static bool HoldsConstructors(ITypeSymbol type) =>
        type is IArrayTypeSymbol { ElementType: var element } && element.ToDisplayString() == "System.Reflection.ConstructorInfo" || IsListOfConstructors(type);

    private static bool IsListOfConstructors(ITypeSymbol? type) =>
        type is INamedTypeSymbol { IsGenericType: true } generic && generic.TypeArguments.Length == 1 && generic.TypeArguments[0].ToDisplayString() == "System.Reflection.ConstructorInfo";

    /// <summary>What a local was assigned, when it is assigned exactly once (its declaration): otherwise nothing can be said.</summary>
    private static IOperation? SingleAssignment(ILocalReferenceOperation reference)
    {
        IOperation root = Root(reference);
        IOperation? value = null;
        int assignments = 0;
        foreach (IOperation operation in root.Descendants())
        {
            switch (operation)
            {
                case IVariableDeclaratorOperation declarator when SymbolEqualityComparer.Default.Equals(declarator.Symbol, reference.Local):
                    if (declarator.Initializer is { } initializer)
                    {
                        value = initializer.Value;
                        assignments++;
                    }
                    break;
                case ISimpleAssignmentOperation { Target: ILocalReferenceOperation target } assignment when SymbolEqualityComparer.Default.Equals(target.Local, reference.Local):
                    value = assignment.Value;
                    assignments++;
                    break;
            }
        }
        return assignments == 1 ? value : null;
    }

    /// <summary>Whether an operation (a lambda, say) reads a member of that name anywhere inside it.</summary>
    public static bool Mentions(IOperation operation, string member) =>
        operation.DescendantsAndSelf().Any(o => o switch
        {
            IPropertyReferenceOperation p => p.Property.Name == member,
            IInvocationOperation c => c.TargetMethod.Name == member,
            IMemberReferenceOperation m => m.Member.Name == member,
            _ => false,
        });
}
