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
        process.OutputDataReceived += (_, e) => { if (e.Data is not null) lock (stdout) stdout.AppendLine(e.Data); };
        process.ErrorDataReceived += (_, e) => { if (e.Data is not null) lock (stderr) stderr.AppendLine(e.Data); };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        if (!process.WaitForExit(timeout))
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit();
            throw new TimeoutException($"{fileName} {string.Join(' ', arguments)} did not finish in {timeout}; output so far:\n{stdout}\n{stderr}");
        }
        process.WaitForExit();
        return new Result(process.ExitCode, stdout.ToString(), stderr.ToString());
    }
}
