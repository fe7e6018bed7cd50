using System.Reflection;
using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.CtorOrder;

/// <summary>
/// "ctororder --assembly" on the built CtorOrder sample: every hazardous selector is found, at an IL offset
/// that really holds the pick (checked with the runtime's own reflection), and no safe selector is.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class CtorOrderSampleScanTests
{
    internal static readonly string[] Hazardous =
    [
        "CtorOrderSample.DefaultCreationPolicy.SelectConstructor",
        "CtorOrderSample.HazardousSelectors.FirstOfAll",
        "CtorOrderSample.HazardousSelectors.FirstDeclared",
        "CtorOrderSample.HazardousSelectors.ElementZero",
        "CtorOrderSample.HazardousSelectors.Greediest",
        "CtorOrderSample.HazardousSelectors.FirstPublicLast",
        "CtorOrderSample.HazardousSelectors.MostResolvable",
        "CtorOrderSample.HazardousSelectors.MostResolvableByIndex",
        "CtorOrderSample.HazardousSelectors.FirstAssignableKept",
        "CtorOrderSample.HazardousSelectors.AllOptional",
        "CtorOrderSample.HazardousSelectors.OneAssignable",
        "CtorOrderSample.HazardousSelectors.Widest",
        "CtorOrderSample.HazardousSelectors.Greedy",
        "CtorOrderSample.HazardousSelectors.FirstOfGiven",
        "CtorOrderSample.HazardousSelectors.FirstOfWrapped",
        "CtorOrderSample.HazardousSelectors.FirstByEnumerator",
        "CtorOrderSample.HazardousSelectors.FirstResolvableOrFallback",
        "CtorOrderSample.HazardousSelectors.GeneratedChain",
        "CtorOrderSample.HazardousSelectors.LastMatchCounted",
        "CtorOrderSample.HazardousSelectors.NamedTwo",
        "CtorOrderSample.HazardousSelectors.NamedFramework",
        "CtorOrderSample.HazardousSelectors.GreediestSortedInPlace", // issue 41: an unstable in-place sort
        "CtorOrderSample.HazardousSelectors.NamedTwoOfArityInLoop", // issue 41: an arity two constructors share
        "CtorOrderSample.Program.CheckCtorOrder", // the seed's own check takes infos[0] too
        // Issue 28: the choice travels before it is picked.
        "CtorOrderSample.FlowSelectors.FirstThatBuilds",
        "CtorOrderSample.FlowSelectors.FactoryForGreediest",
        "CtorOrderSample.FlowSelectors.TryFirstWithOneParameter",
        "CtorOrderSample.FlowSelectors.FirstFittingSignature",
        "CtorOrderSample.FlowSelectors.FirstByOwnHelper",
        "CtorOrderSample.FlowSelectors.RegisterFirstFitting",
        "CtorOrderSample.FlowSelectors.LongestUnlessUnusable", // issue 41: a flag thrown after the loop that is no tie check
        "CtorOrderSample.FlowSelectors.OfExpressionType", // issue 41: any expression's Type, not a lambda's delegate type
        "CtorOrderSample.FlowSelectors.BuildWithDefaults", // issue 41: the choice's parameter count sizes Activator's arguments
        "CtorOrderSample.CallerTypeSelectors.CreateFromEither", // issue 41: one caller passes a type with two constructors
        "CtorOrderSample.CallerTypeSelectors.CreateThroughDelegate", // issue 41: its address is taken, so any type may come
        "CtorOrderSample.CallerTypeSelectors.CreateInExpressionTree", // issue 41: an expression tree calls it through its handle
        "CtorOrderSample.JoinedTypeSelectors.OfEitherWithTwo", // issue 41: one of two named types, one with two constructors
        "CtorOrderSample.CompilerGeneratedSelectors.FromTestedOrNot", // issue 41: one caller passes a type that failed the test
        "CtorOrderSample.CompilerGeneratedSelectors.UserConstructor", // issue 41: picked where the type is not compiler-generated
        "CtorOrderSample.CapturedTypeSelectors.<WrapUntested>g__Untested", // issue 41: one call where the captured type was not tested
        "CtorOrderSample.CapturedTypeSelectors.<WrapList>g__OfList", // issue 41: tested for a generic with three constructors
        "CtorOrderSample.CapturedTypeSelectors.<WrapDerived>g__Derived", // issue 41: a helper walking base types proves nothing
        "CtorOrderSample.CollectedSelectors.FirstFactory", // issue 41: the first of the factories a loop collected
        "CtorOrderSample.CollectedSelectors.FirstCollected", // issue 41: the first of the constructors a loop collected
        "CtorOrderSample.CarriedPositionSelectors.MarkedOfConstructed", // issue 41: a position found in another type's list
    ];

    /// <summary>Picks on types only the sample knows (emitted with TypeBuilder, a wrapper fixed by convention): information.</summary>
    internal static readonly string[] Unknown =
    [
        "CtorOrderSample.UnknownTypeSelectors.OfEmittedType",
        "CtorOrderSample.UnknownTypeSelectors.OfEmittedGeneric",
        "CtorOrderSample.UnknownTypeSelectors.OfWrapper",
    ];

    private static string SampleDll => SampleBuilder.Build("CtorOrder") + ".dll";

    [Test]
    public void Finds_every_hazardous_selector_and_no_safe_one()
    {
        Diagext.Result result = Diagext.Run("ctororder", "--assembly", SampleDll, "--json");

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        string[] methods = result.Findings.Where(f => f.GetProperty("severity").GetString() != "information")
            .Select(f => MethodName(f.GetProperty("callSite").GetProperty("method").GetString()!)).ToArray();
        Assert.That(methods, Is.EquivalentTo(Hazardous));
        string[] unknown = result.Findings.Where(f => f.GetProperty("severity").GetString() == "information")
            .Select(f => MethodName(f.GetProperty("callSite").GetProperty("method").GetString()!)).ToArray();
        Assert.That(unknown, Is.EquivalentTo(Unknown));
        // A named type with several constructors is a hazard on its own; the rest depend on types only a process shows.
        string[] hazards = result.Findings.Where(f => f.GetProperty("severity").GetString() == "hazard")
            .Select(f => MethodName(f.GetProperty("callSite").GetProperty("method").GetString()!)).ToArray();
        // Two of them through what every caller passes: a type with two constructors, a generic tested for one with three.
        string[] proven =
        [
            "CtorOrderSample.HazardousSelectors.NamedTwo", "CtorOrderSample.HazardousSelectors.NamedFramework", "CtorOrderSample.HazardousSelectors.NamedTwoOfArityInLoop",
            "CtorOrderSample.JoinedTypeSelectors.OfEitherWithTwo", "CtorOrderSample.CallerTypeSelectors.CreateFromEither", "CtorOrderSample.CapturedTypeSelectors.<WrapList>g__OfList",
        ];
        Assert.That(hazards, Is.EquivalentTo(proven));
        Assert.That(result.Findings.Count(f => f.GetProperty("severity").GetString() == "warning"), Is.EqualTo(Hazardous.Length - proven.Length));
        Assert.That(result.Findings.All(f => f.GetProperty("kind").GetString() == "positional-constructor-pick"));
    }

    [Test]
    public void Reports_il_offsets_that_hold_the_pick_and_the_source_line()
    {
        Diagext.Result result = Diagext.Run("ctororder", "--assembly", SampleDll, "--json");
        Assembly sample = Assembly.LoadFile(Path.GetFullPath(SampleDll));

        foreach (JsonElement finding in result.Findings)
        {
            JsonElement site = finding.GetProperty("callSite");
            int token = site.GetProperty("methodToken").GetInt32();
            int offset = site.GetProperty("ilOffset").GetInt32();
            byte[] il = sample.ManifestModule.ResolveMethod(token)!.GetMethodBody()!.GetILAsByteArray()!;
            // ldelem.ref (0x9A), ldelem (0xA3), call (0x28) or callvirt (0x6F): the instruction that takes the element.
            Assert.That(il[offset], Is.AnyOf((byte)0x9A, (byte)0xA3, (byte)0x28, (byte)0x6F), $"{site} IL_{offset:x4}");

            string file = site.GetProperty("sourceFile").GetString()!;
            int line = site.GetProperty("sourceLine").GetInt32();
            Assert.That(File.Exists(file), file);
            string text = File.ReadAllLines(file)[line - 1];
            Assert.That(text, Does.Match(@"\[0\]|First|ElementAt|\[constructors|foreach|sorted\[i\]|Aggregate|MaxBy|\.Current|constructors\[i\]"), $"{file}:{line}: {text}");
        }
    }

    [Test]
    public void Applied_type_is_named_when_the_code_names_it()
    {
        Diagext.Result result = Diagext.Run("ctororder", "--assembly", SampleDll, "--json");

        // The findings only: the detector's note names the types of picks left alone by their count (OneConstructor among them).
        using JsonDocument json = JsonDocument.Parse(result.Stdout);
        string findings = string.Join("\n", json.RootElement.GetProperty("findings").EnumerateArray().Select(f => f.GetRawText()));
        // SafeSelectors.OfSingleConstructorType: typeof(OneConstructor).GetConstructors()[0] has one constructor: not reported.
        Assert.That(findings, Does.Not.Contain("OneConstructor"));
        Assert.That(findings, Does.Not.Contain("SafeSelectors"));
        // ProvenFlowSelectors: the same flows with one constructor proven (marker attribute, a second match throws, a tie flag thrown after the loop, Nullable<T>, an arity on decimal, a predicate helper).
        Assert.That(findings, Does.Not.Contain("ProvenFlowSelectors"));
        // DelegateTypeSelectors: a lambda's Type and Expression.GetFuncType are delegate types, one constructor each.
        Assert.That(findings, Does.Not.Contain("DelegateTypeSelectors"));
        // JoinedTypeSelectors.OfEitherSingle: one of two named types, one constructor each.
        Assert.That(findings, Does.Not.Contain("OfEitherSingle"));
        Assert.That(result.Stdout, Does.Contain("OneConstructor"), "named in the note of picks left alone");
    }

    [Test]
    public void Globs_and_folders_expand_to_the_assembly()
    {
        string folder = Path.GetDirectoryName(SampleDll)!;

        Diagext.Result byFolder = Diagext.Run("ctororder", "--assembly", folder, "--json");
        Diagext.Result byGlob = Diagext.Run("ctororder", "--assembly", Path.Combine(folder, "**", "CtorOrder.dll"), "--json");

        Assert.That(byFolder.ExitCode, Is.EqualTo(1), byFolder.Stderr);
        Assert.That(byGlob.ExitCode, Is.EqualTo(1), byGlob.Stderr);
        Assert.That(byGlob.Findings.Count(), Is.EqualTo(Hazardous.Length + Unknown.Length));
        Assert.That(byFolder.Findings.Count(), Is.GreaterThanOrEqualTo(Hazardous.Length + Unknown.Length));
    }

    [Test]
    public void Text_output_names_method_pattern_and_line()
    {
        Diagext.Result result = Diagext.Run("ctororder", "--assembly", SampleDll);

        Assert.That(result.ExitCode, Is.EqualTo(1));
        Assert.That(result.Stdout, Does.Contain("[ctororder] DefaultCreationPolicy.SelectConstructor takes a constructor by position: GetConstructors()[0]"));
        int line = Array.FindIndex(File.ReadAllLines(Path.Combine(Repo.Sample("CtorOrder"), "DefaultCreationPolicy.cs")), l => l.Contains("return constructors[0];")) + 1;
        Assert.That(result.Stdout, Does.Contain($"DefaultCreationPolicy.cs:{line}"));
        Assert.That(result.Stdout, Does.Contain("OrderByDescending(key).First() (sort key can tie"));
        Assert.That(result.Stdout, Does.Contain("GetConstructors().Sort()[0] (unstable sort whose key can tie"));
        Assert.That(result.Stdout, Does.Contain("JoinedTypeSelectors.OfEitherWithTwo takes a constructor by position: (one of 2 types).GetConstructors()[0]"));
        // Issue 41, category 4: a pick left alone because its type has one constructor is said, with the type.
        Assert.That(result.Stdout + result.Stderr, Does.Match(@"\d+ pick\(s\) not reported because the type the code shows has one matching constructor: [^\n]*CtorOrderSample\.SafeSelectors\+OneConstructor"));
        Assert.That(result.Stdout + result.Stderr, Does.Contain("System.Decimal (5 parameters)"));
        Assert.That(result.Stdout + result.Stderr, Does.Contain("a delegate type (the Type of a LambdaExpression)"));
        Assert.That(result.Stdout + result.Stderr, Does.Contain("a delegate type (Expression.GetFuncType)"));
        // Issue 41, category 4 through callers: what every caller of the private helper passes, each with one constructor.
        Assert.That(result.Stdout + result.Stderr, Does.Match(@"one of CtorOrderSample\.CallerTypeSelectors\+FaultRegistration`1, CtorOrderSample\.CallerTypeSelectors\+PlainRegistration`1 \(what every caller of CallerTypeSelectors\.Create passes\)"));
        // Issue 41, category 4: a type tested to be compiler-generated, in place and through a private helper's callers.
        Assert.That(result.Stdout + result.Stderr, Does.Contain("a compiler-generated type (the code tested it) (what every caller of CompilerGeneratedSelectors.FromAnonymous passes)"));
        // Issue 41, category 4 through a local function: the captured type tested for a definition with three constructors.
        Assert.That(result.Stdout, Does.Contain("why a hazard: System.Collections.Generic.List`1 (the code tested its generic definition) has 3 constructors that match"));
        // The shared why/fix paragraph once per run; each finding keeps its own short "why" line.
        Assert.That(result.Stdout.Split("fix: Choose the constructor").Length - 1, Is.EqualTo(1));
        Assert.That(result.Stdout, Does.Contain("fix: as above"));
        Assert.That(result.Stdout, Does.Contain("why a warning: the code does not name the types it is applied to"));
    }

    [Test]
    public void Picks_marked_reviewed_in_the_code_are_left_out_and_counted()
    {
        Diagext.Result result = Diagext.Run("ctororder", "--assembly", SampleDll);

        // ReviewedSelectors: UnconditionalSuppressMessage on a method, SuppressMessage (CODE_ANALYSIS defined) on the
        // method holding a lambda, and on a type.
        Assert.That(result.Stdout, Does.Not.Contain("Reviewed"));
        Assert.That(result.Stdout, Does.Contain("ctororder: note: 3 pick(s) marked reviewed in the code"));
    }

    private static string MethodName(string display)
    {
        string name = display[..display.IndexOf('(')];
        int bar = name.IndexOf('|');
        return bar < 0 ? name : name[..bar];
    }
}
