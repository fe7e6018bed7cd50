using DiagExt.Fuzz;
using DiagExt.Fuzz.Seeds;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Fuzz;

/// <summary>
/// Makes the real dumps the fuzzer starts from with the suite's own fixtures (the Wine loader-lock dumps of every
/// mode, the createdump cores of the DictCycle and DictShapes samples) and writes the seeds of every target under
/// artifacts/fuzz/seeds. Explicit: run it before a long fuzz run (tests/Fuzz/README.md), not in CI.
/// </summary>
[TestFixture]
[Explicit("writes fuzz seeds for long runs; see tests/Fuzz/README.md")]
[Category(TestKind.FuzzSmoke)]
public class FuzzSeedTests
{
    [Test]
    public void Write_seeds_from_the_fixtures_dumps()
    {
        var minidumps = new List<string>(SeedSources.SharedDumps());
        foreach (string mode in new[] { "spin", "wait", "critsec", "healthy" })
            minidumps.Add(WineDumpMaker.Dump("x86_64", mode).Path);
        string[] cores =
        [
            DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core"),
            DumpMaker.DumpOfSample("DictCycle", "dictcycle-hashset.core", "--hashset"),
            DumpMaker.DumpOfSampleWithOutput("DictShapes", "net10.0", "dictshapes-corrupt.core", "corrupt").Path,
        ];
        SeedSources discovered = SeedSources.Discover();
        var log = new StringWriter();
        SeedBuilder.WriteAll(FuzzPaths.SeedRoot, new SeedSources(minidumps, cores, discovered.Assemblies), log);
        TestContext.Out.WriteLine(log);
        foreach (string target in new[] { "minidump", "pe", "elf", "il", "hashtable", "dml" })
            Assert.That(Directory.EnumerateFiles(Path.Combine(FuzzPaths.SeedRoot, target)), Is.Not.Empty, target);
    }
}
