namespace DiagExt.Analyzers.Tests;

/// <summary>
/// The code fix writes GetConstructor(Type[]) with the parameter types of the constructor the code means (the first, or
/// last, in declaration order: what .NET 7 and later return), only where the type is named and nothing filters the list.
/// </summary>
[TestFixture]
[Category("unit"), Parallelizable(ParallelScope.Fixtures)] // the kinds of tests/DiagExt.Tests/Infrastructure/TestKind.cs
public class CtorOrderCodeFixTests
{
    private const string Types = """
        using System; using System.Linq; using System.Reflection;
        public sealed class Two { public Two(int x, string y) { } public Two() { } }
        """;

    [Test]
    public Task Index_zero_becomes_GetConstructor_of_the_first_declared() => Verify.CodeFix(Types + """

        static class C
        {
            static ConstructorInfo Pick() => {|#0:typeof(Two).GetConstructors()[0]|};
        }
        """, Types + """

        static class C
        {
            static ConstructorInfo Pick() => typeof(Two).GetConstructor(new Type[] { typeof(int), typeof(string) });
        }
        """, Verify.Diagnostic(0, "typeof(Two).GetConstructors()[0]", " (Two has 2 that match)"));

    [Test]
    public Task Last_becomes_GetConstructor_of_the_last_declared() => Verify.CodeFix(Types + """

        static class C
        {
            static ConstructorInfo Pick() => {|#0:typeof(Two).GetConstructors().Last()|};
        }
        """, Types + """

        static class C
        {
            static ConstructorInfo Pick() => typeof(Two).GetConstructor(Type.EmptyTypes);
        }
        """, Verify.Diagnostic(0, "typeof(Two).GetConstructors().Last()", " (Two has 2 that match)"));

    [Test]
    public Task Nullable_context_keeps_the_type_with_a_bang() => Verify.CodeFix("#nullable enable\n" + Types + """

        static class C
        {
            static ConstructorInfo Pick() => {|#0:typeof(Two).GetConstructors().First()|};
        }
        """, "#nullable enable\n" + Types + """

        static class C
        {
            static ConstructorInfo Pick() => typeof(Two).GetConstructor(new Type[] { typeof(int), typeof(string) })!;
        }
        """, Verify.Diagnostic(0, "typeof(Two).GetConstructors().First()", " (Two has 2 that match)"));

    [Test]
    public Task No_fix_when_the_type_is_not_named() => Verify.CodeFix("""
        using System; using System.Reflection;
        static class C
        {
            static ConstructorInfo Pick(Type type) => {|#0:type.GetConstructors()[0]|};
        }
        """, """
        using System; using System.Reflection;
        static class C
        {
            static ConstructorInfo Pick(Type type) => {|#0:type.GetConstructors()[0]|};
        }
        """, Verify.Diagnostic(0, "type.GetConstructors()[0]"));
}
