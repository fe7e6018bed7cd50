using DiagExt.Core.Catalog;
using DiagExt.Core.Analysis;
using System.Text.Json;
using DiagExt.Cli;
using DiagExt.Cli.Commands;
using DiagExt.Core.Reports;

namespace DiagExt.Tests.Infrastructure;

/// <summary>Runs the diagext command line in-process (fast) and captures what it prints.</summary>
public static class Diagext
{
    public sealed record Result(int ExitCode, string Stdout, string Stderr)
    {
        public JsonElement Json => JsonDocument.Parse(Stdout).RootElement;

        public IEnumerable<JsonElement> Findings => Json.GetProperty("findings").EnumerateArray();
    }

    public static Result Run(params string[] args)
    {
        var stdout = new StringWriter();
        var stderr = new StringWriter();
        int code = CommandLineApp.Run(args, new CommandIo(stdout, stderr, CancellationToken.None));
        if (ReportSchema.IsReport(stdout.ToString()))
            ReportSchema.AssertValid(stdout.ToString(), $"diagext {string.Join(' ', args)}");
        AssertReadsBack(stdout.ToString());
        return new Result(code, stdout.ToString(), stderr.ToString());
    }

    /// <summary>
    /// Every single-target JSON report a test sees, from every detector on real dumps, must read back into the same
    /// typed records and write out the same text: what a batch does with each of its workers' reports.
    /// </summary>
    private static void AssertReadsBack(string stdout)
    {
        if (!ReportSchema.IsReport(stdout) || stdout.Contains("\"kind\": \"batch\"", StringComparison.Ordinal))
            return;
        var again = new StringWriter();
        DetectorCatalog.Json.Write(DetectorCatalog.Json.Read(stdout), again);
        Assert.That(again.ToString(), Is.EqualTo(stdout), "the report read back by ReportJson writes differently");
    }

    /// <summary>The built diagext executable, for tests that need a separate process (signals, stack traces on stderr).</summary>
    public static string Executable => Path.Combine(AppContext.BaseDirectory, "diagext");
}
