using DiagExt.Core.Errors;
using DiagExt.Core.Native.Elf;
using DiagExt.Core.Native.Minidump;
using DiagExt.Core.Targets.CpuTime;
using DiagExt.Core.Targets.Live;
using DiagExt.Core.Targets.Sources;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets;

/// <summary>
/// Opens dumps and live processes. Everything that can go wrong with the input (missing, not a dump,
/// truncated, unreadable) becomes a <see cref="DiagExtException"/> with one line naming the file and the cause.
/// </summary>
public static class TargetOpener
{
    public static Target OpenDump(string path, TargetOptions? options = null, CancellationToken cancellation = default) =>
        OpenDump(new DumpSource(path), options, cancellation);

    /// <summary>
    /// Opens a dump, a gzip file holding one, or a zip member (a zip with exactly one dump needs no member name).
    /// Packed dumps are unpacked into memory, or into a temp file when large (see <see cref="UnpackedDump"/>).
    /// </summary>
    public static Target OpenDump(DumpSource source, TargetOptions? options = null, CancellationToken cancellation = default)
    {
        options ??= new TargetOptions();
        source = Resolve(source, options.Limits);
        if (!source.IsPacked)
            return OpenFile(source.Path, source.DisplayName, options, null, cancellation);

        UnpackedDump unpacked;
        using (Stream content = DumpArchives.OpenContent(source))
            unpacked = UnpackedDump.Unpack(content, DumpArchives.UnpackedLength(source), source.DisplayName, options.Limits, cancellation);
        try
        {
            DumpFormat inner = DumpFormatProbe.Identify(unpacked.Path);
            if (!DumpFormatProbe.IsDump(inner))
                throw new DiagExtException($"{source.DisplayName}: compressed, but what it holds is not a dump: {DumpFormatProbe.Problem(inner) ?? "another archive"}");
            return OpenFile(unpacked.Path, source.DisplayName, options, unpacked, cancellation);
        }
        catch
        {
            unpacked.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Attaches to a live process, stopped only while it is read (until the returned target is disposed).
    /// On Linux the target must be used and disposed on the calling thread (ptrace; see <see cref="LinuxThreadFreezer"/>).
    /// </summary>
    public static Target Attach(int pid, TargetOptions? options = null, CancellationToken cancellation = default)
    {
        options ??= new TargetOptions();
        CheckProcess(pid);

        // Read CPU times while the process runs: a suspended thread burns nothing.
        ThreadTimes times = ProcThreadTimesReader.Sample(pid, options.LiveCpuSampleWindow, cancellation);
        LiveDataTargets.Opened opened;
        try
        {
            opened = LiveDataTargets.Open(pid, ClrMdOptions(options), options.SuspendLiveProcess, cancellation);
        }
        catch (Exception e) when (e is not OutOfMemoryException and not OperationCanceledException)
        {
            throw new DiagExtException(LiveDataTargets.DescribeFailure(pid, e), e);
        }

        try
        {
            (ClrRuntime? runtime, RuntimeStatus status) = RuntimeLoader.Load(opened.DataTarget, options, cancellation);
            if (status.Availability == RuntimeAvailability.NotPresent)
                status = status with { Problem = "not a .NET process: no .NET runtime is loaded in it" };
            return new Target($"process {pid}", TargetKind.LiveProcess, opened.DataTarget, runtime, status, times, null, options, opened.Hold is null ? null : opened.Hold.Dispose, opened.Memory)
            {
                PauseSoFar = opened.Pause,
            };
        }
        catch
        {
            opened.DataTarget.Dispose();
            opened.Memory?.Dispose();
            opened.Hold?.Dispose();
            throw;
        }
    }

    /// <summary>
    /// "--snapshot": the shortest pause. Linux: the target's runtime writes a dump with createdump, which is
    /// analysed instead of the live process. Windows: <see cref="Attach"/> already reads a snapshot.
    /// </summary>
    public static Target Snapshot(int pid, TargetOptions? options = null, CancellationToken cancellation = default)
    {
        options ??= new TargetOptions();
        CheckProcess(pid);
        if (OperatingSystem.IsWindows())
            return Attach(pid, options, cancellation);
        if (!OperatingSystem.IsLinux())
            throw new DiagExtException("a snapshot of a live process is supported on Linux and Windows only");
        (UnpackedDump dump, string? retried, TimeSpan writing) = CreateDumpSnapshot.Take(pid, cancellation);
        try
        {
            // A retry is said where every report shows it: in the target's name.
            Target target = OpenFile(dump.Path, $"process {pid} (createdump snapshot{(retried is null ? "" : $"; {retried}")})", options, dump, cancellation);
            var pause = new ProcessPause(writing, PauseCause.CreateDump);
            target.PauseSoFar = () => pause;
            return target;
        }
        catch
        {
            dump.Dispose();
            throw;
        }
    }

    private static void CheckProcess(int pid)
    {
        if (pid <= 0)
            throw new DiagExtException($"process id {pid}: not a positive number");
        if (pid == Environment.ProcessId)
            throw new DiagExtException($"process {pid} is diagext itself");
        if (OperatingSystem.IsLinux() && !Directory.Exists($"/proc/{pid}"))
            throw new DiagExtException($"process {pid}: no such process");
    }

    private static Target OpenFile(string path, string name, TargetOptions options, IDisposable? owner, CancellationToken cancellation)
    {
        DumpFormat format = Identify(path, name);
        MinidumpFile? minidump = null;
        ElfCoreFile? core = null;
        DataTarget? dataTarget = null;
        try
        {
            ThreadTimes times;
            if (format == DumpFormat.WindowsMinidump)
            {
                minidump = MinidumpFile.Open(path, options.Limits);
                CheckLength(name, minidump.FileLength, minidump.RequiredFileLength());
                minidump.Validate();
                times = MinidumpThreadTimesReader.Read(minidump);
            }
            else
            {
                core = ElfCoreFile.Open(path, options.Limits); // kept open: the heap walk reads memory through it
                CheckLength(name, core.FileLength, (long)Math.Min(core.Elf.RequiredFileLength(), long.MaxValue));
                times = ElfThreadTimesReader.Read(core);
            }

            dataTarget = DataTarget.LoadDump(path, ClrMdOptions(options));
            (ClrRuntime? runtime, RuntimeStatus status) = RuntimeLoader.Load(dataTarget, options, cancellation);
            var kind = format == DumpFormat.WindowsMinidump ? TargetKind.WindowsMinidump : TargetKind.ElfCore;
            return new Target(name, kind, dataTarget, runtime, status, times, minidump, options, owner is null ? null : owner.Dispose, core);
        }
        catch (Exception e) when (e is not DiagExtException && IsInputProblem(e))
        {
            dataTarget?.Dispose();
            minidump?.Dispose();
            core?.Dispose();
            throw new DiagExtException($"{name}: cannot read the dump: {StripPath(e.Message, path, name)}", e);
        }
        catch
        {
            dataTarget?.Dispose();
            minidump?.Dispose();
            core?.Dispose();
            throw;
        }
    }

    /// <summary>A plain file that turns out to be a .gz or .zip becomes the matching packed source.</summary>
    private static DumpSource Resolve(DumpSource source, Limits limits)
    {
        if (source.IsPacked)
            return source;
        DumpFormat format = Identify(source.Path, source.DisplayName, allowArchives: true);
        if (format == DumpFormat.Gzip)
            return source with { Container = DumpContainer.Gzip };
        if (format != DumpFormat.Zip)
            return source;
        var dumps = DumpArchives.ListZip(source.Path, limits).Where(m => m.Format is DumpFormat.WindowsMinidump or DumpFormat.ElfCore).ToList();
        return dumps.Count switch
        {
            1 => source with { Container = DumpContainer.Zip, Entry = dumps[0].Name },
            0 => throw new DiagExtException($"{source.Path}: a zip archive holding no dump"),
            _ => throw new DiagExtException($"{source.Path}: a zip archive holding {dumps.Count} dumps", Remedy.NameArchiveEntry),
        };
    }

    private static DumpFormat Identify(string path, string name, bool allowArchives = false)
    {
        if (Directory.Exists(path))
            throw new DiagExtException($"{name}: is a directory, not a dump file (use 'diagext analyze' for folders)");
        if (!File.Exists(path))
            throw new DiagExtException($"{name}: no such file");
        DumpFormat format;
        try
        {
            format = DumpFormatProbe.Identify(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new DiagExtException($"{name}: cannot open: {e.Message}", e);
        }
        if (DumpFormatProbe.IsDump(format) || (allowArchives && format is DumpFormat.Gzip or DumpFormat.Zip))
            return format;
        throw new DiagExtException($"{name}: {DumpFormatProbe.Problem(format) ?? "an archive inside an archive; unpack the outer one first"}");
    }

    private static void CheckLength(string path, long actual, long required)
    {
        if (actual < required)
            throw new DiagExtException($"{path}: the dump is truncated: its headers describe {required:N0} bytes but the file has {actual:N0}");
    }

    private static DataTargetOptions ClrMdOptions(TargetOptions options) => new()
    {
        // No symbol server for ClrMD: a DAC is downloaded, only when asked, by Targets/Symbols.
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

    private static string StripPath(string message, string path, string name) =>
        message.Replace($"{path}: ", "", StringComparison.Ordinal).Replace(path, name, StringComparison.Ordinal).ReplaceLineEndings(" ");
}
