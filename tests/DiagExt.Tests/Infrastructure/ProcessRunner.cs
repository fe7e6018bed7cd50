using System.Diagnostics;
using System.Text;

namespace DiagExt.Tests.Infrastructure;

/// <summary>Runs a program to completion with a timeout and captures its output.</summary>
public static class ProcessRunner
{
    public sealed record Result(int ExitCode, string Stdout, string Stderr);

    public static Result Run(string fileName, IEnumerable<string> arguments, TimeSpan timeout, string? workingDirectory = null, IDictionary<string, string>? environment = null)
    {
        var info = new ProcessStartInfo(fileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = workingDirectory ?? Repo.Root,
        };
        foreach (string a in arguments)
            info.ArgumentList.Add(a);
        if (environment is not null)
            foreach (var (k, v) in environment)
                info.Environment[k] = v;

        using var process = Process.Start(info)!;
        var stdout = new StringBuilder();
        var stderr = new StringBuilder();
        Task[] pumps = [Pump(process.StandardOutput, stdout), Pump(process.StandardError, stderr)];
        if (!process.WaitForExit(timeout))
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit(TimeSpan.FromSeconds(10));
            throw new TimeoutException($"{fileName} {string.Join(' ', arguments)} did not finish in {timeout}; output so far:\n{Text(stdout)}\n{Text(stderr)}");
        }
        // A program can leave a process behind that keeps its output open, so the end of file never comes:
        // under Wine the first program of a prefix starts explorer.exe and services that inherit its pipes.
        // Everything the program wrote is read by then; do not wait for the rest of the world.
        Task.WaitAll(pumps, TimeSpan.FromSeconds(10));
        return new Result(process.ExitCode, Text(stdout), Text(stderr));
    }

    private static Task Pump(StreamReader reader, StringBuilder into) => Task.Run(async () =>
    {
        try
        {
            while (await reader.ReadLineAsync() is { } line)
                lock (into)
                    into.AppendLine(line);
        }
        catch (Exception e) when (e is ObjectDisposedException or IOException)
        {
            // the process was disposed while something else still held its pipe open
        }
    });

    private static string Text(StringBuilder text)
    {
        lock (text)
            return text.ToString();
    }
}
