using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.CtorOrder;

/// <summary>
/// Real packages, restored by the test through a throwaway project (nothing committed):
/// CsvHelper's ReflectionExtensions.GetConstructorWithMostParameters is
/// "type.GetConstructors().OrderByDescending(c => c.GetParameters().Length).First()": two constructors with
/// as many parameters tie, and the tie keeps reflection's order. Newtonsoft.Json guards with Length == 1.
/// </summary>
[TestFixture]
[Category(TestKind.RealPrograms)]
public class ThirdPartyPackageTests
{
    private static string Packages() =>
        NuGetPackages.Restore("ctororder-packages", [("CsvHelper", "33.0.1"), ("Newtonsoft.Json", "13.0.3")]);

    [Test]
    public void Finds_csvhelpers_greediest_constructor_pick_and_its_first_exact_match_in_every_target_framework()
    {
        string pattern = Path.Combine(Packages(), "csvhelper", "33.0.1", "lib", "**", "CsvHelper.dll");

        Diagext.Result result = Diagext.Run("ctororder", "--assembly", pattern, "--json");

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        JsonElement[] sites = result.Findings.Select(f => f.GetProperty("callSite")).ToArray();
        Assert.That(sites.Select(s => s.GetProperty("assembly").GetString()).Distinct(), Is.EqualTo(new[] { "CsvHelper" }));
        var patterns = sites.Select(s => (s.GetProperty("method").GetString(), s.GetProperty("pattern").GetString()!)).Distinct().ToArray();
        // ObjectCreator.GetConstructor receives the list and returns the first "Exact" match, which its last parameter alone decides.
        Assert.That(patterns.Select(p => p.Item1), Is.EquivalentTo(new[]
        {
            "CsvHelper.ReflectionExtensions.GetConstructorWithMostParameters(Type)",
            "CsvHelper.ObjectCreator.GetConstructor(ConstructorInfo[], Type, Type[])",
        }), string.Join("\n", patterns));
        Assert.That(patterns.Single(p => p.Item1!.Contains("Greatest") || p.Item1!.Contains("MostParameters")).Item2, Does.Contain("OrderByDescending(key).First()"));
        Assert.That(patterns.Single(p => p.Item1!.Contains("ObjectCreator")).Item2, Does.Contain("loop: the constructor it matched is returned"));
    }

    [Test]
    public void Newtonsoft_json_length_guards_are_not_reported_its_first_assignable_loop_is()
    {
        string pattern = Path.Combine(Packages(), "newtonsoft.json", "13.0.3", "lib", "**", "*.dll");

        Diagext.Result result = Diagext.Run("ctororder", "--assembly", pattern, "--json");

        // GetParameterizedConstructor (Length == 1) and GetImmutableConstructor (a second MoveNext) stay quiet; the loop in
        // CollectionUtils keeps the first constructor assignable from the argument type ("if (found == null && ...) found = c"),
        // of which there can be several (its exact IEnumerable<T> match alone would be unique).
        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout);
        string[] methods = result.Findings.Select(f => f.GetProperty("callSite").GetProperty("method").GetString()!).Distinct().ToArray();
        Assert.That(methods, Is.EqualTo(new[] { "Newtonsoft.Json.Utilities.CollectionUtils.ResolveEnumerableCollectionConstructor(Type, Type, Type)" }));
    }
}
