using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Testing;

namespace DiagExt.Analyzers.Tests;

/// <summary>
/// DXC0001 on real shapes: the ones ctororder's IL scan finds in packages (Enterprise Library's ObjectBuilder, the
/// greediest-constructor selectors of DI containers, first-match loops, McMaster's factory closure) and the ones it
/// must leave alone (Single, a length check, a named type with one constructor, an exact or marker predicate, a sort by
/// MetadataToken, decimal's one five-parameter constructor).
/// </summary>
[TestFixture]
[Category("unit"), Parallelizable(ParallelScope.Fixtures)] // the kinds of tests/DiagExt.Tests/Infrastructure/TestKind.cs
public class CtorOrderAnalyzerTests
{
    private const string Usings = "using System; using System.Collections.Generic; using System.Linq; using System.Reflection;\n";

    [Test]
    public Task ObjectBuilder_default_creation_policy_is_reported() => Verify.Analyzer(Usings + """
        public class DefaultCreationPolicy
        {
            public ConstructorInfo SelectConstructor(Type typeToBuild)
            {
                ConstructorInfo[] constructors = typeToBuild.GetConstructors();
                if (constructors.Length > 0)
                    return {|#0:constructors[0]|};
                return null;
            }
        }
        """, Verify.Diagnostic(0, "constructors[0]"));

    [Test]
    public Task Greediest_constructor_by_a_sort_that_can_tie_is_reported() => Verify.Analyzer(Usings + """
        static class C
        {
            static ConstructorInfo Greediest(Type type) => {|#0:type.GetConstructors().OrderByDescending(c => c.GetParameters().Length).First()|};
        }
        """, Verify.Diagnostic(0, "type.GetConstructors().OrderByDescending(c => c.GetParameters().Length).First()"));

    [Test]
    public Task A_loose_predicate_is_reported_and_an_exact_one_is_not() => Verify.Analyzer(Usings + """
        static class C
        {
            static ConstructorInfo Assignable(Type type, Type argument) =>
                {|#0:type.GetConstructors().FirstOrDefault(c => c.GetParameters().Length == 1 && c.GetParameters()[0].ParameterType.IsAssignableFrom(argument))|};
            static ConstructorInfo Parameterless(Type type) => type.GetConstructors().FirstOrDefault(c => c.GetParameters().Length == 0);
            static ConstructorInfo Exact(Type type, Type[] types) =>
                type.GetConstructors().Where(c => c.GetParameters().Select(p => p.ParameterType).SequenceEqual(types)).FirstOrDefault();
            static ConstructorInfo Marked(Type type) => type.GetConstructors().First(c => c.IsDefined(typeof(ObsoleteAttribute), false));
        }
        """, Verify.Diagnostic(0, "type.GetConstructors().FirstOrDefault(c => c.GetParameters().Length == 1 && c..."));

    [Test]
    public Task Order_independent_choices_are_not_reported() => Verify.Analyzer(Usings + """
        static class C
        {
            static ConstructorInfo Only(Type type) => type.GetConstructors().Single();
            static ConstructorInfo Declared(Type type) => type.GetConstructors().OrderBy(c => c.MetadataToken).First();
            static ConstructorInfo Guarded(Type type)
            {
                ConstructorInfo[] constructors = type.GetConstructors();
                if (constructors.Length == 1)
                    return constructors[0];
                return null;
            }
            static ConstructorInfo Thrown(Type type)
            {
                ConstructorInfo[] constructors = type.GetConstructors();
                if (constructors.Length != 1)
                    throw new InvalidOperationException("one public constructor expected");
                return constructors[0];
            }
        }
        """);

    [Test]
    public Task Named_types_are_counted_with_the_arity_a_predicate_asks_for() => Verify.Analyzer(Usings + """
        public sealed class One { public One(int x) { } }
        public sealed class Two { public Two(int x) { } public Two(string s) { } }
        static class C
        {
            static ConstructorInfo OfOne() => typeof(One).GetConstructors()[0];
            static ConstructorInfo OfTwo() => {|#0:typeof(Two).GetConstructors()[0]|};
            static ConstructorInfo OfNullable() => typeof(int?).GetConstructors().First();
            static ConstructorInfo DecimalParts() => typeof(decimal).GetTypeInfo().DeclaredConstructors.First(c => c.GetParameters().Length == 5);
            static ConstructorInfo StringBuilderOfOne() => {|#1:typeof(System.Text.StringBuilder).GetConstructors().First(c => c.GetParameters().Length == 1)|};
        }
        """, Verify.Diagnostic(0, "typeof(Two).GetConstructors()[0]", " (Two has 2 that match)"),
            Verify.Diagnostic(1, "typeof(System.Text.StringBuilder).GetConstructors().First(c => c.GetParameter...", " (System.Text.StringBuilder has 2 that match)"));

    [Test]
    public Task First_match_loops_are_reported_unless_the_test_matches_one() => Verify.Analyzer(Usings + """
        static class C
        {
            static ConstructorInfo MostResolvable(Type type, Func<Type, bool> canResolve)
            {
                {|#0:foreach|} (ConstructorInfo c in type.GetConstructors().OrderByDescending(c => c.GetParameters().Length))
                    if (c.GetParameters().All(p => canResolve(p.ParameterType)))
                        return c;
                return null;
            }

            // McMaster.Extensions.CommandLineUtils' ConstructorInjectionConvention: a factory closing over the first that resolves.
            static Func<object> Factory(ConstructorInfo[] constructors, IServiceProvider services)
            {
                {|#1:foreach|} (ConstructorInfo candidate in constructors.OrderByDescending(c => c.GetParameters().Length))
                {
                    object[] args = candidate.GetParameters().Select(p => services.GetService(p.ParameterType)).ToArray();
                    if (args.All(a => a != null))
                        return () => candidate.Invoke(args);
                }
                return null;
            }

            static ConstructorInfo Marked(Type type)
            {
                foreach (ConstructorInfo c in type.GetConstructors())
                    if (c.IsDefined(typeof(ObsoleteAttribute), false))
                        return c;
                return null;
            }

            static int CountParameterless(Type type)
            {
                int n = 0;
                foreach (ConstructorInfo c in type.GetConstructors())
                    if (c.GetParameters().Length == 0)
                        n++;
                return n;
            }
        }
        """, Verify.Diagnostic(0, "foreach (ConstructorInfo c in type.GetConstructors().OrderByDescending(c => c..."),
            Verify.Diagnostic(1, "foreach (ConstructorInfo candidate in constructors.OrderByDescending(c => c.G..."));

    /// <summary>
    /// Issue 41, category 3 with a derived value (Jint's DefaultTypeConverter): the first constructor whose parameters are
    /// all optional only sizes the argument array kept for after the loop, and Activator picks a constructor by that size.
    /// </summary>
    [Test]
    public Task A_first_match_kept_for_after_the_loop_is_reported_unless_the_test_matches_one() => Verify.Analyzer(Usings + """
        static class C
        {
            static object BuildWithDefaults(Type type)
            {
                object[] args = Array.Empty<object>();
                bool found = false;
                {|#0:foreach|} (ConstructorInfo c in type.GetConstructors())
                {
                    ParameterInfo[] parameters = c.GetParameters();
                    if (Array.TrueForAll(parameters, p => p.IsOptional) && c.IsPublic)
                    {
                        args = new object[parameters.Length];
                        found = true;
                        break;
                    }
                }
                return found ? Activator.CreateInstance(type, args) : null;
            }

            static object BuildMarked(Type type)
            {
                object[] args = Array.Empty<object>();
                foreach (ConstructorInfo c in type.GetConstructors())
                    if (c.IsDefined(typeof(ObsoleteAttribute), false))
                    {
                        args = new object[c.GetParameters().Length];
                        break;
                    }
                return Activator.CreateInstance(type, args);
            }

            // Only a flag leaves the loop: whether some constructor matched does not depend on the order.
            static bool HasOptionalOnly(Type type)
            {
                bool found = false;
                foreach (ConstructorInfo c in type.GetConstructors())
                    if (Array.TrueForAll(c.GetParameters(), p => p.IsOptional))
                    {
                        found = true;
                        break;
                    }
                return found;
            }

            // What the loop made is kept but never read after it.
            static void Unread(Type type)
            {
                int count = 0;
                foreach (ConstructorInfo c in type.GetConstructors())
                    if (Array.TrueForAll(c.GetParameters(), p => p.IsOptional))
                    {
                        count = c.GetParameters().Length;
                        break;
                    }
            }
        }
        """, Verify.Diagnostic(0, "foreach (ConstructorInfo c in type.GetConstructors()) { ParameterInfo[] param..."));

    /// <summary>Issue 41, category 4: a type tested to wear [CompilerGenerated] (an anonymous type, a closure) has one constructor.</summary>
    [Test]
    public Task A_type_tested_to_be_compiler_generated_has_one_constructor() => Verify.Analyzer(Usings + """
        using System.Runtime.CompilerServices;
        static class C
        {
            static ConstructorInfo Generated(Type type) =>
                type.IsDefined(typeof(CompilerGeneratedAttribute), false) ? type.GetConstructors()[0] : null;

            static object Anonymous(Type type, object[] values)
            {
                if (type.FullName.Contains("AnonymousType") && Attribute.IsDefined(type, typeof(CompilerGeneratedAttribute)))
                    return type.GetConstructors()[0].Invoke(values);
                return null;
            }

            static ConstructorInfo NotGenerated(Type type) =>
                type.IsDefined(typeof(CompilerGeneratedAttribute), false) ? null : {|#0:type.GetConstructors()[0]|};

            static ConstructorInfo OtherType(Type type, Type other) =>
                other.IsDefined(typeof(CompilerGeneratedAttribute), false) ? {|#1:type.GetConstructors()[0]|} : null;
        }
        """, Verify.Diagnostic(0, "type.GetConstructors()[0]"), Verify.Diagnostic(1, "type.GetConstructors()[0]"));

    /// <summary>Issue 41, category 4: a type tested for its generic definition has that definition's constructors.</summary>
    [Test]
    public Task A_type_tested_for_its_generic_definition_has_that_definitions_constructors() => Verify.Analyzer(Usings + """
        using System.Collections.ObjectModel;
        static class C
        {
            static ConstructorInfo ReadOnly(Type type) =>
                type.IsGenericType && type.GetGenericTypeDefinition() == typeof(ReadOnlyCollection<>) ? type.GetConstructors()[0] : null;

            static ConstructorInfo Dictionary(Type type)
            {
                if (typeof(ReadOnlyDictionary<,>) == type.GetGenericTypeDefinition())
                    return type.GetConstructors()[0];
                return null;
            }

            static ConstructorInfo List(Type type) =>
                type.IsGenericType && type.GetGenericTypeDefinition() == typeof(List<>) ? {|#0:type.GetConstructors()[0]|} : null;

            static ConstructorInfo NotReadOnly(Type type) =>
                type.GetGenericTypeDefinition() == typeof(ReadOnlyCollection<>) ? null : {|#1:type.GetConstructors()[0]|};

            static ConstructorInfo OtherType(Type type, Type other) =>
                other.GetGenericTypeDefinition() == typeof(ReadOnlyCollection<>) ? {|#2:type.GetConstructors()[0]|} : null;
        }
        """, Verify.Diagnostic(0, "type.GetConstructors()[0]", " (System.Collections.Generic.List<T> has 3 that match)"),
        Verify.Diagnostic(1, "type.GetConstructors()[0]"), Verify.Diagnostic(2, "type.GetConstructors()[0]"));

    private const string Unstable = " (sorted in place by an unstable sort: tied constructors come out in an order neither reflection nor the sort promises)";

    /// <summary>Issue 41, category 2: Array.Sort and List.Sort sort in place and are unstable; a sort by MetadataToken cannot tie.</summary>
    [Test]
    public Task In_place_sorts_that_can_tie_are_reported_and_say_they_are_unstable() => Verify.Analyzer(Usings + """
        public sealed class Two { public Two(int x) { } public Two(string s) { } }
        static class C
        {
            static ConstructorInfo ByArity(Type type)
            {
                ConstructorInfo[] constructors = type.GetConstructors();
                Array.Sort(constructors, (a, b) => b.GetParameters().Length.CompareTo(a.GetParameters().Length));
                return {|#0:constructors[0]|};
            }
            static ConstructorInfo ListByArity()
            {
                List<ConstructorInfo> constructors = typeof(Two).GetConstructors().ToList();
                constructors.Sort((a, b) => a.GetParameters().Length - b.GetParameters().Length);
                return {|#1:constructors[0]|};
            }
            static ConstructorInfo ByToken(Type type)
            {
                ConstructorInfo[] constructors = type.GetConstructors();
                Array.Sort(constructors, (a, b) => a.MetadataToken.CompareTo(b.MetadataToken));
                return constructors[0];
            }
        }
        """, Verify.Diagnostic(0, "constructors[0]", Unstable), Verify.Diagnostic(1, "constructors[0]", " (Two has 2 that match)" + Unstable));

    /// <summary>Issue 41, category 4: types with one constructor, known from the code though not by typeof(T) of a closed type.</summary>
    [Test]
    public Task Types_with_one_constructor_are_known_through_GetType_MakeGenericType_and_delegates() => Verify.Analyzer(Usings + """
        public sealed class One { public One(int x) { } }
        public sealed class Two { public Two(int x) { } public Two(string s) { } }
        public class Open { public Open(int x) { } }
        public sealed class Box<T> { public Box(T value) { } }
        public sealed class Pair<T> { public Pair(T a) { } public Pair(T a, T b) { } }
        static class C
        {
            static ConstructorInfo Anonymous() => new { A = 1, B = "b" }.GetType().GetConstructors()[0];
            static ConstructorInfo SealedOne(One one) => one.GetType().GetConstructors()[0];
            static ConstructorInfo SealedTwo(Two two) => {|#0:two.GetType().GetConstructors()[0]|};
            static ConstructorInfo NotSealed(Open open) => {|#1:open.GetType().GetConstructors()[0]|};
            static ConstructorInfo Struct(DateTimeOffset d) => {|#2:d.GetType().GetConstructors()[0]|};
            static ConstructorInfo BoxOf(Type t) => typeof(Box<>).MakeGenericType(t).GetConstructors()[0];
            static ConstructorInfo PairOf(Type t) => {|#3:typeof(Pair<>).MakeGenericType(t).GetConstructors()[0]|};
            static ConstructorInfo Delegate() => typeof(Func<int, string>).GetConstructors()[0];
        }
        """, Verify.Diagnostic(0, "two.GetType().GetConstructors()[0]", " (Two has 2 that match)"),
            Verify.Diagnostic(1, "open.GetType().GetConstructors()[0]"),
            Verify.Diagnostic(2, "d.GetType().GetConstructors()[0]", " (System.DateTimeOffset has 9 that match)"),
            Verify.Diagnostic(3, "typeof(Pair<>).MakeGenericType(t).GetConstructors()[0]", " (Pair<T> has 2 that match)"));

    /// <summary>
    /// Issue 41, category 4: a lambda's Type and Expression's delegate type factories are delegate types, one constructor
    /// each (FastExpressionCompiler's "newobj" of a nested lambda); any other expression's Type is not.
    /// </summary>
    [Test]
    public Task Delegate_types_the_code_does_not_name_have_one_constructor() => Verify.Analyzer(Usings + "using System.Linq.Expressions;\n" + """
        static class C
        {
            static readonly Expression<Func<int, string>> Formatter = i => i.ToString();
            static ConstructorInfo OfLambda(LambdaExpression lambda) => lambda.Type.GetConstructors()[0];
            static ConstructorInfo OfTyped() => Formatter.Type.GetConstructors().First(c => c.GetParameters().Length == 2);
            static ConstructorInfo OfFuncType(Type[] types) => Expression.GetFuncType(types).GetConstructors()[0];
            static ConstructorInfo OfNonPublic(LambdaExpression lambda) => lambda.Type.GetConstructors(BindingFlags.NonPublic | BindingFlags.Instance).FirstOrDefault();
            static ConstructorInfo OfAnyExpression(Expression e) => {|#0:e.Type.GetConstructors()[0]|};
        }
        """, Verify.Diagnostic(0, "e.Type.GetConstructors()[0]"));

    /// <summary>Issue 41, category 4: a type named on each side of a conditional; one with two constructors is reported.</summary>
    [Test]
    public Task Types_named_on_both_sides_of_a_conditional_are_all_counted() => Verify.Analyzer(Usings + """
        public sealed class One { public One(int x) { } }
        public sealed class OneToo { public OneToo(string s) { } }
        public sealed class Two { public Two(int x) { } public Two(string s) { } }
        static class C
        {
            static ConstructorInfo EitherOne(bool b) => (b ? typeof(One) : typeof(OneToo)).GetConstructors()[0];
            static ConstructorInfo Nested(int k)
            {
                Type type = k == 0 ? typeof(One) : k == 1 ? typeof(OneToo) : typeof(One);
                return type.GetConstructors().First();
            }
            static ConstructorInfo EitherTwo(bool b) => {|#0:(b ? typeof(One) : typeof(Two)).GetConstructors()[0]|};
            static ConstructorInfo EitherUnknown(bool b, Type t) => {|#1:(b ? typeof(One) : t).GetConstructors()[0]|};
        }
        """, Verify.Diagnostic(0, "(b ? typeof(One) : typeof(Two)).GetConstructors()[0]"), Verify.Diagnostic(1, "(b ? typeof(One) : t).GetConstructors()[0]"));

    /// <summary>Issue 41, category 3: a marker attribute picks one constructor only when one wears it; the source of a named type shows how many do.</summary>
    [Test]
    public Task A_marker_two_constructors_wear_is_reported() => Verify.Analyzer(Usings + """
        [AttributeUsage(AttributeTargets.Constructor)] public sealed class UseAttribute : Attribute { }
        public sealed class Once { [Use] public Once(int x) { } public Once(string s) { } }
        public sealed class Twice { [Use] public Twice(int x) { } [Use] public Twice(string s) { } }
        static class C
        {
            static ConstructorInfo OfOnce() => typeof(Once).GetConstructors().First(c => c.IsDefined(typeof(UseAttribute), false));
            static ConstructorInfo OfTwice() => {|#0:typeof(Twice).GetConstructors().FirstOrDefault(c => c.GetCustomAttribute<UseAttribute>() != null)|};
            static ConstructorInfo Unknown(Type type) => type.GetConstructors().First(c => c.IsDefined(typeof(UseAttribute), false));
        }
        """, Verify.Diagnostic(0, "typeof(Twice).GetConstructors().FirstOrDefault(c => c.GetCustomAttribute<UseA...", " (Twice has 2 that match)"));

    /// <summary>
    /// The severity is the user's: an ".editorconfig" beside the code (dotnet_diagnostic.DXC0001.severity = error / none),
    /// parsed by the compiler as in a build. "error" is checked by EditorConfigBuildTests with the SDK's compiler instead:
    /// under this test framework (1.1.4 on Roslyn 5.12) an .editorconfig "error" came back as a warning, while
    /// "suggestion" and "none" take effect (cause not found).
    /// </summary>
    [TestCase("suggestion", DiagnosticSeverity.Info)]
    [TestCase("none", null)]
    public async Task Severity_is_set_in_editorconfig(string severity, DiagnosticSeverity? expected)
    {
        const string source = Usings + """
            static class C
            {
                static ConstructorInfo First(Type type) => {|#0:type.GetConstructors()[0]|};
            }
            """;
        var test = new Verify { TestCode = expected is null ? source.Replace("{|#0:", "").Replace("|}", "") : source };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", $"root = true\n\n[*.cs]\ndotnet_diagnostic.DXC0001.severity = {severity}\n"));
        if (expected is DiagnosticSeverity level)
            test.ExpectedDiagnostics.Add(Verify.Diagnostic(0, "type.GetConstructors()[0]").WithSeverity(level));
        await test.RunAsync();
    }

    [Test]
    public void Descriptor_has_id_help_link_and_default_severity()
    {
        DiagnosticDescriptor rule = CtorOrderAnalyzer.Rule;
        Assert.That(rule.Id, Is.EqualTo("DXC0001"));
        Assert.That(rule.HelpLinkUri, Does.Contain("system.type.getconstructors"));
        Assert.That(rule.DefaultSeverity, Is.EqualTo(DiagnosticSeverity.Warning));
        Assert.That(rule.IsEnabledByDefault, Is.True);
    }
}
