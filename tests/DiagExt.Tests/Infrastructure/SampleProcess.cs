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
    private readonly bool _detached;
    private int _readyPid;

    private SampleProcess(Process process, bool detached)
    {
        _process = process;
        _detached = detached;
    }

    /// <summary>The sample's pid (for a detached sample, the one its READY line names).</summary>
    public int Pid => _detached ? _readyPid : _process.Id;

    public bool HasExited => _detached ? !Directory.Exists($"/proc/{_readyPid}") : _process.HasExited;

    public string Output
    {
        get
        {
            lock (_output)
                return _output.ToString();
        }
    }

    /// <param name="detached">
    /// Start it through a shell that exits at once, so the sample is not this process's child. Needed when the
    /// test process itself ptraces the sample (in-process attach): the .NET runtime's SIGCHLD handler takes a
    /// ptrace stop of its own child for an exit, after which Process.Kill no longer kills it.
    /// </param>
    public static SampleProcess StartAndWaitReady(string executable, IEnumerable<string> arguments, TimeSpan timeout, IDictionary<string, string>? environment = null, bool detached = false)
    {
        var info = new ProcessStartInfo(detached ? "/bin/sh" : executable)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        if (detached)
        {
            info.ArgumentList.Add("-c");
            info.ArgumentList.Add("\"$0\" \"$@\" &");
            info.ArgumentList.Add(executable);
        }
        foreach (string a in arguments)
            info.ArgumentList.Add(a);
        if (environment is not null)
            foreach (var (k, v) in environment)
                info.Environment[k] = v;
        var sample = new SampleProcess(Process.Start(info)!, detached);
        var ready = new ManualResetEventSlim();
        sample._process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is null)
                return;
            lock (sample._output)
                sample._output.AppendLine(e.Data);
            if (e.Data.StartsWith("READY", StringComparison.Ordinal))
            {
                sample._readyPid = int.TryParse(e.Data["READY".Length..].Trim(), out int pid) ? pid : 0;
                ready.Set();
            }
        };
        sample._process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is not null)
                lock (sample._output)
                    sample._output.AppendLine(e.Data);
        };
        sample._process.BeginOutputReadLine();
        sample._process.BeginErrorReadLine();
        // A sample that dies before it is ready fails at once, with its output, instead of at the timeout
        // (a detached sample's shell exits at once, so only the timeout tells there).
        var waited = System.Diagnostics.Stopwatch.StartNew();
        while (!ready.Wait(200) && !(!detached && sample._process.HasExited) && waited.Elapsed < timeout)
        {
        }
        if (!ready.IsSet)
        {
            string output = sample.Output;
            bool exited = !detached && sample._process.HasExited;
            sample.Dispose();
            throw new TimeoutException($"{Path.GetFileName(executable)} was not ready after {waited.Elapsed:mm\\:ss}{(exited ? " (it exited)" : "")}:\n{output}");
        }
        return sample;
    }

    public void Dispose()
    {
        if (_detached && _readyPid > 0)
        {
            try
            {
                using Process sample = Process.GetProcessById(_readyPid);
                sample.Kill();
            }
            catch (Exception e) when (e is ArgumentException or InvalidOperationException)
            {
                // Already gone.
            }
        }
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
