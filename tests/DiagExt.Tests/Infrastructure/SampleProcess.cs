using System.Diagnostics;
using System.Text;

namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// A running sample: started, waited on until it prints its ready line, and killed on dispose.
/// Samples print "READY &lt;pid&gt;" once their hazard is in place.
/// </summary>
public sealed class SampleProcess : IDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _output = new();

    private SampleProcess(Process process) => _process = process;

    public int Pid => _process.Id;

    public bool HasExited => _process.HasExited;

    public string Output
    {
        get
        {
            lock (_output)
                return _output.ToString();
        }
    }

    public static SampleProcess StartAndWaitReady(string executable, IEnumerable<string> arguments, TimeSpan timeout, IDictionary<string, string>? environment = null)
    {
        var info = new ProcessStartInfo(executable)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string a in arguments)
            info.ArgumentList.Add(a);
        if (environment is not null)
            foreach (var (k, v) in environment)
                info.Environment[k] = v;
        var sample = new SampleProcess(Process.Start(info)!);
        var ready = new ManualResetEventSlim();
        sample._process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is null)
                return;
            lock (sample._output)
                sample._output.AppendLine(e.Data);
            if (e.Data.StartsWith("READY", StringComparison.Ordinal))
                ready.Set();
        };
        sample._process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is not null)
                lock (sample._output)
                    sample._output.AppendLine(e.Data);
        };
        sample._process.BeginOutputReadLine();
        sample._process.BeginErrorReadLine();
        if (!ready.Wait(timeout))
        {
            string output = sample.Output;
            sample.Dispose();
            throw new TimeoutException($"{Path.GetFileName(executable)} was not ready after {timeout}:\n{output}");
        }
        return sample;
    }

    public void Dispose()
    {
        try
        {
            if (!_process.HasExited)
            {
                _process.Kill(entireProcessTree: true);
                _process.WaitForExit(10_000);
            }
        }
        catch (InvalidOperationException)
        {
        }
        _process.Dispose();
    }
}
