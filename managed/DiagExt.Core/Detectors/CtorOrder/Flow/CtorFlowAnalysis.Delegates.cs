using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// Delegate types the code does not name (issue 41, category 4): an expression tree lambda's <c>Type</c>, and
/// <c>Expression.GetDelegateType/GetFuncType/GetActionType</c>. Every delegate type has one constructor, (object, IntPtr),
/// so a pick from its list cannot depend on the order. C# compiles <c>lambda.Type</c> as a call to <c>Expression.get_Type</c>
/// (the declaration it overrides), so only the receiver's static type says "lambda": taken from the parameter, field,
/// return or cast type the value came from.
/// </summary>
internal sealed partial class CtorFlowAnalysis
{
    private const string ExpressionNamespace = "System.Linq.Expressions.";

    /// <summary>LambdaExpression, or Expression&lt;TDelegate&gt; (which derives from it), as signatures name them.</summary>
    private static bool IsLambdaType(string type) =>
        type == ExpressionNamespace + "LambdaExpression" || type.StartsWith(ExpressionNamespace + "Expression<", StringComparison.Ordinal);

    /// <summary>A value of a static type <paramref name="type"/>: a lambda when that type says so, else <paramref name="otherwise"/>.</summary>
    private static FlowValue TypedAs(string type, FlowValue otherwise) => otherwise is UnknownValue && IsLambdaType(type) ? LambdaValue.Instance : otherwise;

    /// <summary>What a call gives when it is a delegate type: a lambda's Type, or one of Expression's delegate type factories.</summary>
    private static DelegateTypeValue? DelegateTypeFrom(MethodReference method, FlowValue first)
    {
        if (!method.DeclaringType.StartsWith(ExpressionNamespace, StringComparison.Ordinal))
            return null;
        if (method.Name == "get_Type" && method.HasThis && first is LambdaValue)
            return new DelegateTypeValue("the Type of a LambdaExpression");
        return method.Name is "GetDelegateType" or "GetFuncType" or "GetActionType" && !method.HasThis && method.DeclaringType == ExpressionNamespace + "Expression"
            ? new DelegateTypeValue($"Expression.{method.Name}")
            : null;
    }

    /// <summary>"castclass LambdaExpression", "isinst Expression&lt;T&gt;": from then on the value is a lambda.</summary>
    private FlowValue CastTo(int token, FlowValue value)
    {
        if (value is not UnknownValue)
            return value;
        try
        {
            EntityHandle handle = MetadataTokens.EntityHandle(token);
            if (handle.Kind is not (HandleKind.TypeDefinition or HandleKind.TypeReference or HandleKind.TypeSpecification))
                throw new BadImageFormatException($"a cast to token 0x{token:x8}, which names no type");
            return IsLambdaType(MetadataNames.TypeName(_md, handle)) ? LambdaValue.Instance : value;
        }
        catch (Exception e) when (MalformedMetadata.Is(e) && e is not BadImageFormatException)
        {
            throw new BadImageFormatException($"a cast to an invalid token 0x{token:x8}");
        }
    }

    /// <summary>A field read nothing in this method stored: what its declared type says.</summary>
    private FlowValue FieldOfType(int token)
    {
        if (!_fieldIsLambda.TryGetValue(token, out bool lambda))
            _fieldIsLambda[token] = lambda = FieldTypeIsLambda(token);
        return lambda ? LambdaValue.Instance : FlowValue.Unknown;
    }

    private bool FieldTypeIsLambda(int token)
    {
        try
        {
            EntityHandle handle = MetadataTokens.EntityHandle(token);
            string? type = handle.Kind switch
            {
                HandleKind.FieldDefinition => Signatures.Field(_md, _md.GetFieldDefinition((FieldDefinitionHandle)handle)),
                HandleKind.MemberReference => Signatures.Field(_md, _md.GetMemberReference((MemberReferenceHandle)handle)),
                _ => throw new BadImageFormatException($"a field access with token 0x{token:x8}, which names no field"),
            };
            return type is not null && IsLambdaType(type);
        }
        catch (Exception e) when (MalformedMetadata.Is(e) && e is not BadImageFormatException)
        {
            throw new BadImageFormatException($"a field access with an invalid token 0x{token:x8}");
        }
    }
}
