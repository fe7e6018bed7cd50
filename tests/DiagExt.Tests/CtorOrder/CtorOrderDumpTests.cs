using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.CtorOrder;

/// <summary>
/// The CtorOrder sample, run and dumped: diagext must find the call sites in the IL the dump holds, and
/// report for each of the 10,001 types the constructor order reflection returned in that process, which
/// the sample itself wrote to a file before the dump.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class CtorOrderDumpTests
{
    private static string? _orders;

    private static string Dump()
    {
        _orders ??= Path.Combine(Repo.WorkDirectory, "ctororder-orders.txt");
        return DumpMaker.DumpOfSample("CtorOrder", "ctororder.core", "--orders", _orders);
    }

    [Test]
    public void Reports_the_order_reflection_returned_for_every_sample_type()
    {
        string dump = Dump();

        Diagext.Result result = Diagext.Run("ctororder", dump, "--json");

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        JsonElement observed = result.Findings.Single(f => f.GetProperty("kind").GetString() == "constructor-order-observed");
        Assert.That(observed.GetProperty("severity").GetString(), Is.EqualTo("information"));
        Dictionary<string, string> fromDump = observed.GetProperty("types").EnumerateArray().ToDictionary(
            t => t.GetProperty("type").GetString()!,
            t => string.Join(", ", t.GetProperty("runtimeOrder").EnumerateArray().Select(c => c.GetString())));
        string[] fromProcess = File.ReadAllLines(_orders!);
        Assert.That(fromProcess, Has.Length.EqualTo(10_001));
        foreach (string line in fromProcess)
        {
            string type = line[..line.IndexOf(':')];
            Assert.That(fromDump.TryGetValue(type, out string? order), Is.True, $"{type} missing from the dump's report");
            Assert.That($"{type}: {order}", Is.EqualTo(line));
        }
    }

    [Test]
    public void Method_desc_chunk_reconstruction_agrees_with_reflection_in_the_same_process()
    {
        Diagext.Result result = Diagext.Run("ctororder", Dump(), "--json");

        JsonElement check = result.Findings.Single(f => f.GetProperty("kind").GetString() == "constructor-order-observed").GetProperty("methodDescChunkCheck");
        Assert.That(check.GetProperty("agrees").GetInt32(), Is.EqualTo(10_001));
        Assert.That(check.GetProperty("differs").GetInt32(), Is.EqualTo(0));
        Assert.That(check.GetProperty("notPossible").GetInt32(), Is.EqualTo(0));
    }

    [Test]
    public void Finds_the_call_sites_in_the_loaded_modules_il()
    {
        Diagext.Result result = Diagext.Run("ctororder", Dump(), "--json");

        JsonElement[] sites = result.Findings.Where(f => f.TryGetProperty("callSite", out _)).ToArray();
        string[] methods = sites.Select(f => f.GetProperty("callSite").GetProperty("method").GetString()!).ToArray();
        Assert.That(methods, Has.Some.StartsWith("CtorOrderSample.DefaultCreationPolicy.SelectConstructor(Type)"));
        Assert.That(methods.Count(m => m.StartsWith("CtorOrderSample.", StringComparison.Ordinal)), Is.EqualTo(CtorOrderSampleScanTests.Hazardous.Length + CtorOrderSampleScanTests.Unknown.Length));
        Assert.That(methods, Has.None.Contains("SafeSelectors"));
        Assert.That(methods, Has.None.Contains("Reviewed"));
        // On .NET 10 no type's first constructor differs, so nothing is proven: warnings, no hazard.
        Assert.That(sites.Select(f => f.GetProperty("severity").GetString()), Is.All.EqualTo("warning"));
        JsonElement select = sites.First(f => f.GetProperty("callSite").GetProperty("method").GetString()!.Contains("SelectConstructor"));
        Assert.That(select.GetProperty("callSite").GetProperty("ilOffset").GetInt32(), Is.EqualTo(0x0d));
    }

    [Test]
    public void Analyze_runs_ctororder_too()
    {
        Diagext.Result result = Diagext.Run("analyze", Dump(), "--json");

        Assert.That(result.ExitCode, Is.EqualTo(1));
        Assert.That(result.Findings.Select(f => f.GetProperty("detector").GetString()), Has.Member("ctororder"));
    }
}
