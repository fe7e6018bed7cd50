using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.CtorOrder;

/// <summary>
/// The same sample published self-contained for .NET Core 3.1.3 (runtime pack from NuGet), run and dumped
/// with that runtime's createdump. .NET Core 3.1 lists a later MethodDesc chunk first, so the type whose two
/// constructors straddle MethodDef row 0x4000 (DerivedSealed8188 with this compiler) returns ctor(String) first: the seed's
/// failure, for real. diagext must prove the hazard at the ObjectBuilder-style call site. Slow: the
/// publish compiles 10,000 classes again (about a minute the first time).
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class OlderRuntimeTests
{
    private static readonly object Gate = new();
    private static (string Dump, string Output, string Straddling)? _run;

    /// <summary>The DerivedSealed type whose two constructors are MethodDef rows 0x3FFF and 0x4000, read from the built assembly.</summary>
    private static string StraddlingType(string assembly)
    {
        using var pe = new System.Reflection.PortableExecutable.PEReader(File.OpenRead(assembly));
        System.Reflection.Metadata.MetadataReader md = System.Reflection.Metadata.PEReaderExtensions.GetMetadataReader(pe);
        foreach (var handle in md.TypeDefinitions)
        {
            var type = md.GetTypeDefinition(handle);
            int[] rows = type.GetMethods().Select(m => System.Reflection.Metadata.Ecma335.MetadataTokens.GetRowNumber(m)).ToArray();
            if (rows.Length == 2 && rows.Contains(0x3FFF) && rows.Contains(0x4000))
                return md.GetString(type.Name);
        }
        throw new InvalidOperationException("no DerivedSealed type straddles MethodDef row 0x4000: adjust DerivedSealedPadding");
    }

    private static (string Dump, string Output, string Straddling) Run()
    {
        lock (Gate)
        {
            if (_run is { } done)
                return done;
            string work = Path.Combine(Repo.WorkDirectory, "ctororder-netcoreapp3.1");
            string bin = Path.Combine(work, "bin");
            ProcessRunner.Result publish = ProcessRunner.Run("dotnet",
            [
                "publish", Repo.Sample("CtorOrder"), "-c", "Release", "-r", "linux-x64", "--self-contained",
                "-p:CtorOrderTargetFramework=netcoreapp3.1", "-p:RuntimeFrameworkVersion=3.1.3",
                "-p:DisableTransitiveFrameworkReferenceDownloads=true", "-p:DerivedSealedPadding=1", $"-p:BaseIntermediateOutputPath={Path.Combine(work, "obj")}/",
                "-o", bin, "--nologo", "-v", "q",
            ], TimeSpan.FromMinutes(10));
            if (publish.ExitCode != 0)
                throw new InvalidOperationException($"publishing CtorOrder for netcoreapp3.1 failed:\n{publish.Stdout}\n{publish.Stderr}");

            using SampleProcess process = SampleProcess.StartAndWaitReady(Path.Combine(bin, "CtorOrder"), [], TimeSpan.FromMinutes(2),
                new Dictionary<string, string> { ["DOTNET_SYSTEM_GLOBALIZATION_INVARIANT"] = "1" });
            // Through DumpMaker for its retries: createdump now and then dies gathering state (seen in CI).
            string dump = DumpMaker.Dump(process.Pid, "ctororder-netcoreapp3.1.core", Path.Combine(bin, "createdump"));
            _run = (dump, process.Output, StraddlingType(Path.Combine(bin, "CtorOrder.dll")));
            return _run.Value;
        }
    }

    [Test]
    public void The_sample_itself_sees_one_reordered_type_on_netcoreapp31()
    {
        string output = Run().Output;

        Assert.That(output, Does.Contain("runtime 3.1.3"));
        Assert.That(output, Does.Contain($"Type {Run().Straddling} has different ordered ctor!"));
        Assert.That(output, Does.Contain("built 9999, failed 1"));
    }

    [Test]
    public void Proves_the_hazard_at_the_object_builder_call_site()
    {
        Diagext.Result result = Diagext.Run("ctororder", Run().Dump, "--json");

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        JsonElement select = result.Findings.Single(f => f.TryGetProperty("callSite", out JsonElement s) && s.GetProperty("method").GetString()!.Contains("SelectConstructor"));
        Assert.That(select.GetProperty("kind").GetString(), Is.EqualTo("constructor-order-hazard"));
        Assert.That(select.GetProperty("severity").GetString(), Is.EqualTo("hazard"));
        JsonElement type = select.GetProperty("types").EnumerateArray().Single();
        Assert.That(type.GetProperty("type").GetString(), Is.EqualTo($"CtorOrderSample.{Run().Straddling}"));
        Assert.That(type.GetProperty("runtimeOrder").EnumerateArray().Select(e => e.GetString()), Is.EqualTo(new[] { ".ctor(String)", ".ctor()" }));
        Assert.That(type.GetProperty("metadataOrder").EnumerateArray().Select(e => e.GetString()), Is.EqualTo(new[] { ".ctor()", ".ctor(String)" }));

        // The greediest-constructor sort hides reflection's order unless keys tie: listed, not proven. (By its full name:
        // FlowSelectors.FactoryForGreediest is another site.)
        JsonElement greediest = result.Findings.Single(f => f.TryGetProperty("callSite", out JsonElement s) && s.GetProperty("method").GetString()!.Contains("HazardousSelectors.Greediest("));
        Assert.That(greediest.GetProperty("severity").GetString(), Is.EqualTo("warning"));
    }

    [Test]
    public void Chunk_reconstruction_agrees_with_reflection_including_the_reordered_type()
    {
        Diagext.Result result = Diagext.Run("ctororder", Run().Dump, "--json");

        JsonElement observed = result.Findings.Single(f => f.GetProperty("kind").GetString() == "constructor-order-observed");
        Assert.That(observed.GetProperty("title").GetString(), Does.Contain("1 differ from declaration order"));
        JsonElement check = observed.GetProperty("methodDescChunkCheck");
        Assert.That(check.GetProperty("agrees").GetInt32(), Is.EqualTo(10_001));
        Assert.That(check.GetProperty("differs").GetInt32(), Is.EqualTo(0));
    }
}
