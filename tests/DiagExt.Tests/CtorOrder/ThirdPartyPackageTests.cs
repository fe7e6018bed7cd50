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
public class ThirdPartyPackageTests
{
    private static string Packages() =>
        NuGetPackages.Restore("ctororder-packages", [("CsvHelper", "33.0.1"), ("Newtonsoft.Json", "13.0.3")]);

    [Test]
    public void Finds_csvhelpers_greediest_constructor_pick_in_every_target_framework()
    {
        string pattern = Path.Combine(Packages(), "csvhelper", "33.0.1", "lib", "**", "CsvHelper.dll");

        Diagext.Result result = Diagext.Run("ctororder", "--assembly", pattern, "--json");

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        JsonElement[] sites = result.Findings.Select(f => f.GetProperty("callSite")).ToArray();
        Assert.That(sites, Is.Not.Empty);
        Assert.That(sites.All(s => s.GetProperty("method").GetString() == "CsvHelper.ReflectionExtensions.GetConstructorWithMostParameters(Type)"), string.Join("\n", sites));
        Assert.That(sites.All(s => s.GetProperty("pattern").GetString()!.Contains("OrderByDescending(key).First()")));
        Assert.That(sites.Select(s => s.GetProperty("assembly").GetString()).Distinct(), Is.EqualTo(new[] { "CsvHelper" }));
    }

    [Test]
    public void Newtonsoft_json_length_guards_are_not_reported()
    {
        string pattern = Path.Combine(Packages(), "newtonsoft.json", "13.0.3", "lib", "**", "*.dll");

        Diagext.Result result = Diagext.Run("ctororder", "--assembly", pattern, "--json");

        Assert.That(result.ExitCode, Is.EqualTo(0), result.Stdout);
        Assert.That(result.Json.GetProperty("detectors")[0].GetProperty("status").GetString(), Is.EqualTo("ran"));
    }
}
