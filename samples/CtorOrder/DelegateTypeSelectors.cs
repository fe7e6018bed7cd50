using System.Linq.Expressions;
using System.Reflection;

namespace CtorOrderSample;

/// <summary>
/// Issue 41, category 4: delegate types the code does not name. Each has one constructor, (object, IntPtr), so these
/// picks cannot depend on the order: none may be flagged. C# compiles "lambda.Type" as a call to Expression.get_Type,
/// so only where the lambda came from (a parameter, a field, a cast, a call's return type) says it is a lambda.
/// </summary>
public static class DelegateTypeSelectors
{
    private static readonly Expression<Func<int, string>> Formatter = i => i.ToString();

    /// <summary>A compiler emitting "newobj" for a nested lambda (FastExpressionCompiler's shape).</summary>
    public static ConstructorInfo OfLambdaParameter(LambdaExpression lambda) => lambda.Type.GetConstructors()[0];

    public static ConstructorInfo OfLambdaField() => Formatter.Type.GetConstructors().First();

    public static ConstructorInfo? OfCast(Expression expression) =>
        expression is LambdaExpression lambda ? lambda.Type.GetConstructors()[0] : null;

    public static ConstructorInfo OfBuiltLambda(Expression body, ParameterExpression[] parameters) =>
        Expression.Lambda(body, parameters).Type.GetTypeInfo().DeclaredConstructors.First();

    public static ConstructorInfo OfFuncType(Type[] argumentsAndResult) => Expression.GetFuncType(argumentsAndResult).GetConstructors()[0];
}
