using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.DictCycle;

/// <summary>
/// The seed's program itself, unchanged: on .NET it dies of the InvalidOperationException a looping lookup
/// throws, and the runtime's crash handler (DOTNET_DbgEnableMiniDump) writes a full dump at that moment.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class DictCycleSeedTests
{
    // The seed only inserts in its first Parallel.Invoke (later runs overwrite existing keys), so a launch either
    // races within a second or never: many short launches beat a few long ones.
    // On an idle machine most launches race; on a loaded one (other processes hogging both cores) the three
    // writers rarely overlap, so the test keeps launching for a while rather than a fixed number of times.
    private static readonly TimeSpan Budget = TimeSpan.FromMinutes(5);
    private static readonly TimeSpan LaunchTimeout = TimeSpan.FromSeconds(3);

    [Test]
    public void A_crash_dump_of_the_seed_program_names_its_static_dictionary_and_its_defects()
    {
        string exe = SampleBuilder.Build("DictCycleSeed");
        var attempts = new List<string>();
        var clock = System.Diagnostics.Stopwatch.StartNew();
        for (int launch = 1; clock.Elapsed < Budget; launch++)
        {
            string dump = Path.Combine(Repo.WorkDirectory, "dumps", $"seed-{launch}.core");
            Directory.CreateDirectory(Path.GetDirectoryName(dump)!);
            File.Delete(dump);
            var env = new Dictionary<string, string>
            {
                ["DOTNET_DbgEnableMiniDump"] = "1",
                ["DOTNET_DbgMiniDumpType"] = "4", // full memory
                ["DOTNET_DbgMiniDumpName"] = dump,
            };
            ProcessRunner.Result run;
            try
            {
                run = ProcessRunner.Run(exe, [], LaunchTimeout, environment: env);
            }
            catch (TimeoutException)
            {
                attempts.Add($"launch {launch}: no corruption within {LaunchTimeout.TotalSeconds} s");
                continue;
            }
            if (!File.Exists(dump))
            {
                attempts.Add($"launch {launch}: exited {run.ExitCode} without a dump");
                continue;
            }

            Diagext.Result result = Diagext.Run("dictcycle", dump, "--json");
            string crash = run.Stderr.Split('\n').FirstOrDefault(l => l.Contains("Exception")) ?? "?";
            JsonElement? finding = result.ExitCode == 1
                ? result.Findings.Cast<JsonElement?>().FirstOrDefault(f => f!.Value.TryGetProperty("holder", out JsonElement h) && h.GetString() == "ConcurrentDictionary.Program._dict")
                : null;
            if (finding is { } f)
            {
                // On .NET the seed dies of the first exception a broken chain causes; the dump shows the
                // state at that moment (a loop, a duplicate key, phantom entries...), whichever it is.
                TestContext.Out.WriteLine($"launch {launch}: {crash.Trim()}\n{Diagext.Run("dictcycle", dump).Stdout}");
                Assert.That(f.GetProperty("type").GetString(), Is.EqualTo("System.Collections.Generic.Dictionary<System.String, System.Int32>"));
                Assert.That(f.GetProperty("defects").GetArrayLength(), Is.GreaterThan(0));
                return;
            }
            // A race can also crash the seed while its dictionary is still consistent (e.g. Resize losing an array).
            attempts.Add($"launch {launch}: crashed with {crash.Trim()}; diagext exit {result.ExitCode}");
        }
        Assert.Fail($"no crash dump of the seed showed its corrupt dictionary in {attempts.Count} launches ({Budget}):\n{string.Join("\n", attempts)}");
    }
}
