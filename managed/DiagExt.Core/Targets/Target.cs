using DiagExt.Core.Native;
using IMemoryReader = DiagExt.Core.Native.IMemoryReader;
using DiagExt.Core.Native.Minidump;
using Microsoft.Diagnostics.Runtime;
using Microsoft.Diagnostics.Runtime.DataReaders.Implementation;

namespace DiagExt.Core.Targets;

/// <summary>
/// One opened dump or live process: ClrMD's view (memory, modules, the .NET runtime when a DAC is found)
/// plus DiagExt's own native view (thread CPU times, the Windows minidump streams). Open with <see cref="TargetOpener"/>.
/// </summary>
public sealed class Target : IDisposable
{
    private readonly Lazy<IReadOnlyList<TargetThread>> _threads;
    private readonly Lazy<LiveObjects?> _liveness;
    private readonly Action? _onDispose;
    private readonly IMemoryReader? _memory;

    internal Target(
        string displayName,
        TargetKind kind,
        DataTarget dataTarget,
        ClrRuntime? runtime,
        RuntimeStatus runtimeStatus,
        ThreadTimes threadTimes,
        MinidumpFile? minidump,
        TargetOptions options,
        Action? onDispose = null,
        IMemoryReader? memory = null)
    {
        DisplayName = displayName;
        Kind = kind;
        DataTarget = dataTarget;
        Runtime = runtime;
        RuntimeStatus = runtimeStatus;
        ThreadTimes = threadTimes;
        Minidump = minidump;
        _memory = memory;
        Options = options;
        _onDispose = onDispose;
        _threads = new(BuildThreads);
        _liveness = new(() => runtime is null ? null : new LiveObjects(runtime, () => Threads.Select(t => t.CurrentException), Limits.MaxLiveMarkObjects));
    }

    /// <summary>The dump path or "process N".</summary>
    public string DisplayName { get; }

    public TargetKind Kind { get; }

    /// <summary>When the dump was written, by its own header (a minidump's, to the second); null for a core or a live process.</summary>
    public DateTime? DumpTime => Minidump?.Timestamp;

    /// <summary>When the process started, where the dump records it (a minidump's MiscInfo stream).</summary>
    public DateTime? ProcessStart => Minidump?.MiscInfo?.ProcessCreateTime;

    /// <summary>
    /// "libcoreclr.so@0x7f1e2c400000": the runtime's module and where it is loaded (else the lowest module's), which
    /// differs between processes (address-space randomisation) and so tells a reused process id apart.
    /// </summary>
    public string? ProcessImage
    {
        get
        {
            try
            {
                if (DataTarget.ClrVersions.FirstOrDefault()?.ModuleInfo is { } clr)
                    return $"{FileName(clr.FileName)}@0x{clr.ImageBase:x}";
                return DataTarget.EnumerateModules().Where(m => m.ImageBase != 0).MinBy(m => m.ImageBase) is { } first
                    ? $"{FileName(first.FileName)}@0x{first.ImageBase:x}"
                    : null;
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                return null; // a damaged module list: no identity rather than a failed report
            }
            static string FileName(string path) => path[(path.LastIndexOfAny(['/', '\\']) + 1)..];
        }
    }

    public DataTarget DataTarget { get; }

    /// <summary>The .NET runtime, or null (see <see cref="RuntimeStatus"/> for why).</summary>
    public ClrRuntime? Runtime { get; }

    public RuntimeStatus RuntimeStatus { get; }

    public ThreadTimes ThreadTimes { get; }

    /// <summary>DiagExt's own reader of a Windows minidump target; null for other targets.</summary>
    internal MinidumpFile? Minidump { get; }

    /// <summary>
    /// Target memory read by DiagExt itself (thread-safe, no shared position), for bulk reads such as the heap walk: the
    /// dump's file, or a stopped Linux process's /proc/PID/mem; null for other live processes, whose memory only ClrMD reads.
    /// </summary>
    internal IMemoryReader? FileMemory => (IMemoryReader?)Minidump ?? _memory;

    public TargetOptions Options { get; }

    public Limits Limits => Options.Limits;

    public int PointerSize => DataTarget.DataReader.PointerSize;

    public string Architecture => DataTarget.DataReader.Architecture.ToString().ToLowerInvariant();

    public string Platform => DataTarget.DataReader.TargetPlatform.ToString();

    public int? ProcessId => DataTarget.DataReader.ProcessId is int pid and > 0 ? pid : null;

    /// <summary>
    /// How many threads may read this target at once: <see cref="TargetOptions.Threads"/> (default one per
    /// core, at most <see cref="MaxWorkers"/>) when ClrMD says its reader and runtime are thread-safe, else 1.
    /// With more than one, the heap pass runs on its own thread beside the detectors.
    /// </summary>
    public int Workers => Runtime?.IsThreadSafe == true ? Math.Clamp(Options.Threads ?? Environment.ProcessorCount, 1, MaxWorkers) : 1;

    /// <summary>Beyond this, ClrMD's serialised DAC calls leave extra threads waiting.</summary>
    public const int MaxWorkers = 8;

    /// <summary>Every OS thread, with its managed identity where the runtime knows it.</summary>
    public IReadOnlyList<TargetThread> Threads => _threads.Value;

    /// <summary>
    /// Which heap objects something other than a thread's stack keeps alive (one mark shared by every detector, run as far
    /// as questions need it); null without a managed runtime. <see cref="TargetThread.Holds(ulong)"/> asks it.
    /// </summary>
    public LiveObjects? Liveness => _liveness.Value;

    /// <summary>How long the live process has been kept from running so far; null for a dump or an unstopped process.</summary>
    public ProcessPause? Pause
    {
        get
        {
            ProcessPause? pause = PauseSoFar?.Invoke();
            // Only a ptrace pause lasts the whole analysis, so only it can be longer than a snapshot's.
            return pause is { By: PauseCause.Ptrace } ? pause with { SnapshotEstimate = Live.SnapshotEstimate.For(Runtime) } : pause;
        }
    }

    /// <summary>Set by <see cref="TargetOpener"/> for a live target: the pause as it stands when asked.</summary>
    internal Func<ProcessPause>? PauseSoFar { get; set; }

    public TargetThread? FindThread(uint osThreadId) => Threads.FirstOrDefault(t => t.OsThreadId == osThreadId);

    /// <summary>
    /// Reads target memory; returns the number of bytes read (never throws). A dump is read from its file first
    /// (<see cref="FileMemory"/>: no lock, so detectors and the heap pass do not queue behind ClrMD's one stream);
    /// what the file lacks ClrMD may still supply (e.g. from a module's image on disk).
    /// </summary>
    public int ReadMemory(ulong address, Span<byte> buffer)
    {
        int read = FileMemory?.ReadMemory(address, buffer) ?? 0;
        return read == buffer.Length ? read : read + DataTarget.DataReader.Read(address + (ulong)read, buffer[read..]);
    }

    public void Dispose()
    {
        Runtime?.Dispose();
        DataTarget.Dispose();
        Minidump?.Dispose();
        (_memory as IDisposable)?.Dispose();
        _onDispose?.Invoke();
    }

    private IReadOnlyList<TargetThread> BuildThreads()
    {
        var byOsId = new Dictionary<uint, ClrThread>();
        if (Runtime is not null)
        {
            foreach (ClrThread t in Runtime.Threads.Take(Limits.MaxThreads))
                if (t.OSThreadId != 0)
                    byOsId.TryAdd(t.OSThreadId, t);
        }

        IEnumerable<uint> osIds = DataTarget.DataReader is IThreadReader reader ? reader.EnumerateOSThreadIds() : [];
        var ordered = new List<uint>();
        var seen = new HashSet<uint>();
        foreach (uint id in osIds.Concat(byOsId.Keys))
        {
            if (ordered.Count >= Limits.MaxThreads)
                break;
            if (seen.Add(id))
                ordered.Add(id);
        }
        return ordered.Select(id => new TargetThread(this, id, byOsId.GetValueOrDefault(id), ThreadTimes.For(id))).ToList();
    }
}
