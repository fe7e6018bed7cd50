using System.Collections.Generic;
using System.Linq;
using DiagExt.Core.Detectors.CtorOrder.Model;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace DiagExt.Analyzers;

/// <summary>
/// What a predicate given to First(p) / Where(p), or a loop's if-condition, tests about a constructor: the same reading
/// as the IL scan's (OrderDependentPick's lists): exact parameter types, no parameters or a marker attribute match at most
/// one; a test from <see cref="OrderDependentPick.LooseTests"/> can match several.
/// </summary>
internal static class Predicates
{
    public static bool SelectsAtMostOne(IOperation predicate)
    {
        HashSet<string> names = Names(predicate);
        if (names.Overlaps(OrderDependentPick.LooseTests))
            return false;
        if (names.Contains(OrderDependentPick.SignatureTest) || names.Overlaps(OrderDependentPick.AttributeQueries))
            return true;
        if (names.Contains("ParameterType") && ComparesForEquality(predicate))
            return true;
        // "GetParameters().Length == 0": one parameterless constructor.
        return names.Contains("GetParameters") && LengthConstants(predicate) is { Count: > 0 } constants && constants.All(k => k == 0) && !names.Contains("ParameterType");
    }

    /// <summary>
    /// The attribute a marker test asks about (c.IsDefined(typeof(A)), c.GetCustomAttribute&lt;A&gt;() != null), when the
    /// code names it: a marker matches one constructor only if one wears it, which the source of a named type shows.
    /// </summary>
    public static INamedTypeSymbol? MarkerAttribute(IOperation predicate)
    {
        foreach (IInvocationOperation call in predicate.DescendantsAndSelf().OfType<IInvocationOperation>())
        {
            if (!OrderDependentPick.AttributeQueries.Contains(call.TargetMethod.Name))
                continue;
            if (call.TargetMethod.TypeArguments.Length == 1 && call.TargetMethod.TypeArguments[0] is INamedTypeSymbol generic)
                return generic;
            if (call.Arguments.Select(a => a.Value).OfType<ITypeOfOperation>().FirstOrDefault()?.TypeOperand is INamedTypeSymbol named)
                return named;
        }
        return null;
    }

    /// <summary>The parameter count a predicate asks for ("GetParameters().Length == 5"), when that is all it tests.</summary>
    public static int? Arity(IOperation predicate)
    {
        HashSet<string> names = Names(predicate);
        if (!names.Contains("GetParameters") || names.Overlaps(OrderDependentPick.LooseTests) || names.Contains("ParameterType"))
            return null;
        List<int> constants = LengthConstants(predicate);
        return constants.Count == 1 ? constants[0] : null;
    }

    private static HashSet<string> Names(IOperation operation)
    {
        var names = new HashSet<string>(System.StringComparer.Ordinal);
        foreach (IOperation o in operation.DescendantsAndSelf())
        {
            switch (o)
            {
                case IInvocationOperation call:
                    names.Add(call.TargetMethod.Name);
                    break;
                case IPropertyReferenceOperation property:
                    names.Add(property.Property.Name);
                    break;
            }
        }
        return names;
    }

    private static bool ComparesForEquality(IOperation operation) =>
        operation.DescendantsAndSelf().Any(o => o is IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals } or IInvocationOperation { TargetMethod.Name: "Equals" or "op_Equality" });

    /// <summary>The constants a Length (or Count) is compared with.</summary>
    private static List<int> LengthConstants(IOperation operation) =>
        operation.DescendantsAndSelf().OfType<IBinaryOperation>()
            .Where(b => IsLength(b.LeftOperand) || IsLength(b.RightOperand))
            .Select(b => (IsLength(b.LeftOperand) ? b.RightOperand : b.LeftOperand).ConstantValue)
            .Where(c => c.HasValue && c.Value is int)
            .Select(c => (int)c.Value!)
            .ToList();

    private static bool IsLength(IOperation operation) => operation switch
    {
        IPropertyReferenceOperation { Property.Name: "Length" or "Count" } => true,
        IInvocationOperation { TargetMethod.Name: "Count" } => true,
        IConversionOperation conversion => IsLength(conversion.Operand),
        _ => false,
    };
}
