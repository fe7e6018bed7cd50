using System.Text.Json;
using DiagExt.Cli;
using DiagExt.Cli.Commands;

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
        return new Result(code, stdout.ToString(), stderr.ToString());
    }

    /// <summary>The built diagext executable, for tests that need a separate process (signals, stack traces on stderr).</summary>
    public static string Executable => Path.Combine(AppContext.BaseDirectory, "diagext");
}
