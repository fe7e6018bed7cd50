using System.Diagnostics;
using System.Globalization;
using DiagExt.Core.Errors;
using DiagExt.Core.Targets.Sources;

namespace DiagExt.Core.Targets.Live;

/// <summary>
/// "--snapshot" on Linux: the target's own runtime writes a dump with createdump (heap included), which
/// pauses the process only while it writes; diagext then analyses the dump at leisure. createdump ships
/// beside libcoreclr.so, which /proc/PID/maps names.
/// </summary>
internal static class CreateDumpSnapshot
{
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(10);

    /// <summary>createdump attempts when it dies of a signal (it sometimes crashes gathering a busy target's state).</summary>
    private const int Attempts = 3;

    /// <summary>
    /// A dump written by createdump, what went wrong on the way (null when the first attempt wrote it), and how long
    /// the attempt that wrote it ran: the process's pause (createdump stops it while it writes).
    /// </summary>
    public sealed record Snapshot(UnpackedDump Dump, string? Retried, TimeSpan Writing);

    public static Snapshot Take(int pid, CancellationToken cancellation)
    {
        Written written = Write(pid, TempArea.NewFilePath, cancellation);
        return new Snapshot(UnpackedDump.Adopt(written.Path), written.Retried, written.Writing);
    }

    /// <summary>A dump file createdump wrote and left where it is: its path, what went wrong on the way, how long it took.</summary>
    public sealed record Written(string Path, string? Retried, TimeSpan Writing);

    /// <summary>Writes the dump at a path of the caller's (each attempt asks <paramref name="path"/> for one, given the suffix).</summary>
    public static Written Write(int pid, Func<string, string> path, CancellationToken cancellation)
    {
        string createdump = FindCreateDump(pid);
        var failures = new List<string>();
        for (int attempt = 1; ; attempt++)
        {
            string file = path(".core");
            var writing = Stopwatch.StartNew();
            (int exitCode, string last) = Run(createdump, pid, file, cancellation);
            if (exitCode == 0 && File.Exists(file))
                return new Written(file, failures.Count == 0 ? null : $"createdump died {string.Join(", then ", failures)}; attempt {attempt} wrote the dump", writing.Elapsed);
            UnpackedDump.TryDelete(file);
            // Exit codes above 128 are deaths by a signal (seen: SIGSEGV, 139, on a process throwing steadily; the
            // .NET 8 and 9 createdump dies inside the DAC in a few percent of tries); the next attempt usually succeeds.
            // A refusal (no permission, no such process) is final.
            if (exitCode <= 128 || attempt == Attempts)
                throw new DiagExtException($"process {pid}: createdump failed (exit code {exitCode}{(attempt > 1 ? $", attempt {attempt} of {Attempts}" : "")}): {last}");
            failures.Add($"(exit code {exitCode}{(last.Length > 0 ? $": {last}" : "")})");
        }
    }

    private static (int ExitCode, string LastLine) Run(string createdump, int pid, string path, CancellationToken cancellation)
    {
        var info = new ProcessStartInfo(createdump)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string arg in new[] { "-h", "-f", path, pid.ToString(CultureInfo.InvariantCulture) })
            info.ArgumentList.Add(arg);
        using Process process = Process.Start(info) ?? throw new DiagExtException($"process {pid}: cannot start {createdump}");
        Task<string> stdout = process.StandardOutput.ReadToEndAsync(CancellationToken.None);
        Task<string> stderr = process.StandardError.ReadToEndAsync(CancellationToken.None);
        // createdump is a tracer itself (PTRACE_ATTACH per thread): killing it part-way could leave the target
        // stopped, so Ctrl+C lets it finish and only then gives up; a createdump hung for minutes is killed.
        if (!process.WaitForExit(Timeout))
        {
            process.Kill(entireProcessTree: true);
            UnpackedDump.TryDelete(path);
            throw new DiagExtException($"process {pid}: createdump did not finish within {Timeout.TotalMinutes:0} minutes");
        }
        if (cancellation.IsCancellationRequested)
        {
            UnpackedDump.TryDelete(path);
            cancellation.ThrowIfCancellationRequested();
        }
        string last = (stderr.Result + "\n" + stdout.Result).Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).LastOrDefault() ?? "";
        return (process.ExitCode, last);
    }

    /// <summary>createdump beside the libcoreclr.so the target has loaded.</summary>
    public static string FindCreateDump(int pid)
    {
        string? coreclr = LoadedCoreClr(pid)
            ?? throw new DiagExtException($"process {pid}: not a .NET process (no libcoreclr.so loaded), so it has no createdump to write a snapshot", Remedy.ReadLiveWithoutSnapshot);
        // A target in another mount namespace (a container) sees its files under /proc/PID/root.
        foreach (string folder in new[] { Path.GetDirectoryName(coreclr)!, $"/proc/{pid}/root{Path.GetDirectoryName(coreclr)}" })
        {
            string candidate = Path.Combine(folder, "createdump");
            if (File.Exists(candidate))
                return candidate;
        }
        throw new DiagExtException($"process {pid}: no createdump beside its runtime ({Path.GetDirectoryName(coreclr)})", Remedy.ReadLiveWithoutSnapshot);
    }

    private static string? LoadedCoreClr(int pid)
    {
        try
        {
            foreach (string line in File.ReadLines($"/proc/{pid}/maps"))
            {
                int slash = line.IndexOf('/');
                if (slash > 0 && line.EndsWith("/libcoreclr.so", StringComparison.Ordinal))
                    return line[slash..];
            }
            return null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new DiagExtException($"process {pid}: cannot read /proc/{pid}/maps ({e.Message}); run diagext as the process's user or as root", e);
        }
    }
}
