using System.Globalization;
using System.Text.RegularExpressions;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.RealPrograms;

/// <summary>
/// One bounded run of redis-benchmark (Debian's redis-tools) against a server on 127.0.0.1: 20 connections,
/// random keys and fields from a keyspace of 100,000, so the server's hash and set objects keep growing.
/// </summary>
public sealed partial record RedisBenchmark(string Tests, int ExitCode, IReadOnlyDictionary<string, double> RequestsPerSecond, string Output)
{
    public static RedisBenchmark Run(int port, int requests, string tests)
    {
        ProcessRunner.Result result = ProcessRunner.Run("redis-benchmark",
            ["-h", "127.0.0.1", "-p", port.ToString(), "-n", requests.ToString(), "-c", "20", "-r", "100000", "-t", tests, "-q"],
            TimeSpan.FromMinutes(2));
        // -q prints each test's progress and then "SET: 55632.82 requests per second, p50=0.239 msec"; the progress
        // is rewritten with \r, which ends a line for the reader too.
        var rps = new Dictionary<string, double>();
        foreach (Match m in FinalLine().Matches(result.Stdout))
            rps[m.Groups[1].Value] = double.Parse(m.Groups[2].Value, CultureInfo.InvariantCulture);
        return new RedisBenchmark(tests, result.ExitCode, rps, result.Stdout + result.Stderr);
    }

    /// <summary>The same run in the background, as load on the server while it is dumped or attached to.</summary>
    public static Task<RedisBenchmark> Start(int port, int requests, string tests) => Task.Run(() => Run(port, requests, tests));

    /// <summary>
    /// Every test ran to its end: redis-benchmark exits 1 at the first error reply ("Error from server") or lost
    /// connection, so exit code 0 and a rate for each test means every request was answered.
    /// </summary>
    public void AssertCompleted(string when)
    {
        Assert.That(ExitCode, Is.EqualTo(0), $"redis-benchmark {when} failed:\n{Output}");
        Assert.That(Output, Does.Not.Contain("rror"), $"redis-benchmark {when} printed an error:\n{Output}");
        string[] expected = Tests.ToUpperInvariant().Split(',');
        Assert.That(RequestsPerSecond.Keys, Is.EquivalentTo(expected), $"redis-benchmark {when}: a test did not finish:\n{Output}");
        Assert.That(RequestsPerSecond.Values, Has.All.GreaterThan(0));
    }

    public override string ToString() => string.Join(", ", RequestsPerSecond.Select(r => $"{r.Key} {r.Value:N0}/s"));

    [GeneratedRegex(@"^([A-Z_]+): ([0-9.]+) requests per second", RegexOptions.Multiline)]
    private static partial Regex FinalLine();
}
