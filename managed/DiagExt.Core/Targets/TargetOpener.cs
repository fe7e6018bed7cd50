using DiagExt.Core.Errors;
using DiagExt.Core.Native.Elf;
using DiagExt.Core.Native.Minidump;
using DiagExt.Core.Targets.CpuTime;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets;

/// <summary>
/// Opens dumps and live processes. Everything that can go wrong with the input (missing, not a dump,
/// truncated, unreadable) becomes a <see cref="DiagExtException"/> with one line naming the file and the cause.
/// </summary>
public static class TargetOpener
{
    public static Target OpenDump(string path, TargetOptions? options = null)
    {
        options ??= new TargetOptions();
        DumpFormat format = Identify(path);
        MinidumpFile? minidump = null;
        DataTarget? dataTarget = null;
        try
        {
            ThreadTimes times;
            if (format == DumpFormat.WindowsMinidump)
            {
                minidump = MinidumpFile.Open(path, options.Limits);
                CheckLength(path, minidump.FileLength, minidump.RequiredFileLength());
                times = MinidumpThreadTimesReader.Read(minidump);
            }
            else
            {
                using ElfCoreFile core = ElfCoreFile.Open(path, options.Limits);
                CheckLength(path, core.FileLength, (long)Math.Min(core.Elf.RequiredFileLength(), long.MaxValue));
                times = ElfThreadTimesReader.Read(core);
            }

            dataTarget = DataTarget.LoadDump(path, ClrMdOptions(options));
            (ClrRuntime? runtime, RuntimeStatus status) = RuntimeLoader.Load(dataTarget, options.DacPath);
            var kind = format == DumpFormat.WindowsMinidump ? TargetKind.WindowsMinidump : TargetKind.ElfCore;
            return new Target(path, kind, dataTarget, runtime, status, times, minidump, options);
        }
        catch (Exception e) when (e is not DiagExtException && IsInputProblem(e))
        {
            dataTarget?.Dispose();
            minidump?.Dispose();
            throw new DiagExtException($"{path}: cannot read the dump: {StripPath(e.Message, path)}", e);
        }
        catch
        {
            dataTarget?.Dispose();
            minidump?.Dispose();
            throw;
        }
    }

    /// <summary>Attaches to a live process, suspending it until the returned target is disposed.</summary>
    public static Target Attach(int pid, TargetOptions? options = null, CancellationToken cancellation = default)
    {
        options ??= new TargetOptions();
        if (pid <= 0)
            throw new DiagExtException($"--pid {pid}: a process id is a positive number");
        if (pid == Environment.ProcessId)
            throw new DiagExtException($"--pid {pid}: that is diagext itself");
        if (OperatingSystem.IsLinux() && !Directory.Exists($"/proc/{pid}"))
            throw new DiagExtException($"process {pid}: no such process");

        // Read CPU times while the process runs: a suspended thread burns nothing.
        ThreadTimes times = ProcThreadTimesReader.Sample(pid, options.LiveCpuSampleWindow, cancellation);
        DataTarget dataTarget;
        try
        {
            dataTarget = DataTarget.AttachToProcess(pid, suspend: true, ClrMdOptions(options));
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            throw new DiagExtException(AttachFailure(pid, e), e);
        }

        try
        {
            (ClrRuntime? runtime, RuntimeStatus status) = RuntimeLoader.Load(dataTarget, options.DacPath);
            return new Target($"process {pid}", TargetKind.LiveProcess, dataTarget, runtime, status, times, null, options);
        }
        catch
        {
            dataTarget.Dispose();
            throw;
        }
    }

    private static DumpFormat Identify(string path)
    {
        if (Directory.Exists(path))
            throw new DiagExtException($"{path}: is a directory, not a dump file (use 'diagext analyze' for folders)");
        if (!File.Exists(path))
            throw new DiagExtException($"{path}: no such file");
        DumpFormat format;
        try
        {
            format = DumpFormatProbe.Identify(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new DiagExtException($"{path}: cannot open: {e.Message}", e);
        }
        return format switch
        {
            DumpFormat.WindowsMinidump or DumpFormat.ElfCore => format,
            DumpFormat.Empty => throw new DiagExtException($"{path}: the file is empty, not a dump"),
            DumpFormat.ElfNotCore => throw new DiagExtException($"{path}: an ELF file, but not a core dump"),
            DumpFormat.Gzip or DumpFormat.Zip => throw new DiagExtException($"{path}: a compressed archive, not a dump; unpack it first"),
            _ => throw new DiagExtException($"{path}: not a dump file (neither a Windows minidump nor an ELF core dump)"),
        };
    }

    private static void CheckLength(string path, long actual, long required)
    {
        if (actual < required)
            throw new DiagExtException($"{path}: the dump is truncated: its headers describe {required:N0} bytes but the file has {actual:N0}");
    }

    private static DataTargetOptions ClrMdOptions(TargetOptions options) => new()
    {
        // No symbol server: DiagExt never downloads anything unasked.
        SymbolPaths = [],
        Limits = new DataTargetLimits
        {
            MaxThreads = options.Limits.MaxThreads,
            MaxStackFrames = options.Limits.MaxFramesPerThread,
            MaxMinidumpStreams = options.Limits.MaxMinidumpStreams,
            MaxMinidumpMemoryRanges = options.Limits.MaxMinidumpMemoryRanges,
            MaxElfProgramHeaders = options.Limits.MaxElfProgramHeaders,
        },
    };

    private static bool IsInputProblem(Exception e) =>
        e is InvalidDataException or IOException or UnauthorizedAccessException or NotSupportedException
            or InvalidOperationException or ClrDiagnosticsException or OverflowException or ArgumentException
            or IndexOutOfRangeException or EndOfStreamException;

    private static string AttachFailure(int pid, Exception e)
    {
        string message = e.Message.ReplaceLineEndings(" ");
        if (e is UnauthorizedAccessException || message.Contains("permission", StringComparison.OrdinalIgnoreCase) || message.Contains("EPERM", StringComparison.Ordinal))
            return $"process {pid}: not permitted to attach ({message}); run diagext as the process's user or root, or allow ptrace (sysctl kernel.yama.ptrace_scope=0)";
        if (e is ArgumentException || message.Contains("not running", StringComparison.OrdinalIgnoreCase) || message.Contains("No such process", StringComparison.OrdinalIgnoreCase))
            return $"process {pid}: no such process";
        return $"process {pid}: cannot attach: {message}";
    }

    private static string StripPath(string message, string path) =>
        message.Replace($"{path}: ", "", StringComparison.Ordinal).ReplaceLineEndings(" ");
}
