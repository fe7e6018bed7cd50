using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.RealPrograms;

/// <summary>
/// Dumps of the SDK's idle build servers, the Roslyn compiler server and an MSBuild worker node, each with the
/// createdump of the runtime it runs on: large heaps full of caches (syntax trees, metadata, evaluated projects)
/// that nobody here wrote. No dictcycle finding and no hazard.
/// </summary>
[TestFixture]
[Category(TestKind.RealPrograms)]
public class SdkBuildServerDumpTests
{
    private SdkBuildServers _servers = null!;

    [OneTimeSetUp]
    public void Build() => _servers = SdkBuildServers.Start();

    [OneTimeTearDown]
    public void Shutdown() => _servers.Dispose();

    [Test]
    public void Compiler_server_dump_is_clean() => DumpAndAnalyse(_servers.Compiler, "VBCSCompiler");

    [Test]
    public void MSBuild_node_dump_is_clean() => DumpAndAnalyse(_servers.MSBuildNode, "MSBuild node");

    private static void DumpAndAnalyse(int pid, string what)
    {
        ProcessRuntime runtime = ProcessRuntime.Of(pid);
        TestContext.Out.WriteLine($"{what}: pid {pid}, .NET {runtime.Version} ({runtime.Directory}): {File.ReadAllText($"/proc/{pid}/cmdline").Replace('\0', ' ').Trim()}");
        string dump = DumpMaker.Dump(pid, $"realprograms-{what.Replace(' ', '-').ToLowerInvariant()}.core", runtime.CreateDump);
        TestContext.Out.WriteLine($"{what}: heap census: {HeapCensus.Of(dump)}");
        CleanAnalysis.OfDump(dump, what);
        // Kept only when an assertion failed, for a human to look at.
        File.Delete(dump);
    }
}
