using System.Diagnostics;
using System.Text.Json;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.RealPrograms;

/// <summary>
/// What a healthy real program must give: no dictcycle finding (its dictionaries are not corrupt, so any finding is
/// a false positive) and no finding of severity "hazard". Warnings and information (e.g. ctororder on library code)
/// are allowed: they describe code, not a fault. Everything diagext reported is printed so a human can judge it.
/// </summary>
public static class CleanAnalysis
{
    /// <summary>Runs 'analyze DUMP --json' in-process, records size, objects and time, and asserts it is clean.</summary>
    public static Diagext.Result OfDump(string dump, string what)
    {
        var clock = Stopwatch.StartNew();
        Diagext.Result result = Diagext.Run("analyze", dump, "--json");
        clock.Stop();
        TestContext.Out.WriteLine($"{what}: dump {new FileInfo(dump).Length / (1024.0 * 1024):N0} MiB, analysis {clock.Elapsed.TotalSeconds:N2}s wall in-process");
        AssertClean(result, what);
        TestContext.Out.WriteLine($"{what}: diagext peak RSS {PeakRss(dump)}");
        return result;
    }

    public static void AssertClean(Diagext.Result result, string what)
    {
        Assert.That(result.ExitCode, Is.AnyOf(0, 1), $"{what}: analyze failed:\n{result.Stderr}\n{result.Stdout}");
        JsonElement json = result.Json;
        JsonElement runtime = json.GetProperty("target").GetProperty("runtime");
        TestContext.Out.WriteLine($"{what}: .NET {runtime.GetProperty("version")} ({runtime.GetProperty("availability")}), " +
            $"{json.GetProperty("target").GetProperty("threads")} threads, {json.GetProperty("heapObjects").GetInt64():N0} heap objects, " +
            $"diagext's own elapsedMs {json.GetProperty("elapsedMs").GetDouble():N0}");
        foreach (JsonElement detector in json.GetProperty("detectors").EnumerateArray())
            TestContext.Out.WriteLine($"  detector {detector.GetProperty("name")}: {detector.GetProperty("status")}, {detector.GetProperty("findings")} findings, " +
                $"{detector.GetProperty("elapsedMs").GetDouble():N0} ms{(detector.TryGetProperty("reason", out JsonElement why) ? $" ({why})" : "")}");
        foreach (JsonElement finding in result.Findings)
            TestContext.Out.WriteLine($"  finding {finding.GetProperty("detector")} [{Severity(finding)}]: {finding.GetProperty("title")}");
        if (result.Stderr.Length > 0)
            TestContext.Out.WriteLine($"  stderr: {result.Stderr.Trim()}");

        // dictcycle must run here (a .NET target), or "no finding" proves nothing.
        JsonElement dictcycle = json.GetProperty("detectors").EnumerateArray().Single(d => d.GetProperty("name").GetString() == "dictcycle");
        Assert.That(dictcycle.GetProperty("status").GetString(), Is.EqualTo("ran"), $"{what}: dictcycle did not run");
        JsonElement[] dictcycleFindings = result.Findings.Where(f => f.GetProperty("detector").GetString() == "dictcycle").ToArray();
        Assert.That(dictcycleFindings, Is.Empty, $"{what}: dictcycle reported a healthy program (false positive?):\n{string.Join("\n", dictcycleFindings.Select(f => f.ToString()))}");
        JsonElement[] hazards = result.Findings.Where(f => Severity(f) == "hazard").ToArray();
        Assert.That(hazards, Is.Empty, $"{what}: hazards in a healthy program:\n{string.Join("\n", hazards.Select(f => f.ToString()))}");
    }

    /// <summary>A finding without a severity is a hazard (the schema's default).</summary>
    private static string Severity(JsonElement finding) =>
        finding.TryGetProperty("severity", out JsonElement s) ? s.GetString()! : "hazard";

    /// <summary>
    /// Peak RSS of the built diagext executable analysing the same dump in its own process, from GNU time
    /// (/usr/bin/time -v, installed by scripts/setup-bench.sh): the in-process run shares the test host's memory.
    /// </summary>
    private static string PeakRss(string dump)
    {
        if (!File.Exists("/usr/bin/time"))
            return "not measured (/usr/bin/time missing)";
        ProcessRunner.Result run = ProcessRunner.Run("/usr/bin/time", ["-v", Diagext.Executable, "analyze", dump, "--json"], TimeSpan.FromMinutes(5));
        string? rss = run.Stderr.Split('\n').FirstOrDefault(l => l.Contains("Maximum resident set size (kbytes)"));
        string? wall = run.Stderr.Split('\n').FirstOrDefault(l => l.Contains("Elapsed (wall clock)"));
        return rss is null
            ? $"not measured (exit {run.ExitCode})"
            : $"{long.Parse(rss.Split(':').Last().Trim()) / 1024.0:N0} MiB (separate process, exit {run.ExitCode}, wall {wall?.Split("):").Last().Trim()})";
    }
}
