using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets;

/// <summary>
/// One OS thread of the target with what DiagExt knows about it. The managed stack and the raw stack
/// words are read once, on first use, and shared by every detector (detectors may run at once: the reads
/// are made under a lock).
/// </summary>
public sealed class TargetThread
{
    private readonly Target _target;
    private readonly Limits _limits;
    private readonly object _gate = new();
    private IReadOnlyList<ManagedFrame>? _frames;
    private HashSet<ulong>? _stackWords;

    internal TargetThread(Target target, uint osThreadId, ClrThread? clrThread, ThreadCpuTime? cpu)
    {
        _target = target;
        OsThreadId = osThreadId;
        ClrThread = clrThread;
        Cpu = cpu;
        _limits = target.Limits;
    }

    public uint OsThreadId { get; }

    public ClrThread? ClrThread { get; }

    public int? ManagedThreadId => ClrThread?.ManagedThreadId;

    public ThreadCpuTime? Cpu { get; }

    /// <summary>Set when the stack walk stopped early (unreadable memory, DAC error).</summary>
    public string? StackProblem { get; private set; }

    /// <summary>Managed frames, innermost first; empty for a thread that never ran managed code.</summary>
    public IReadOnlyList<ManagedFrame> Frames
    {
        get
        {
            lock (_gate)
                return _frames ??= ReadFrames();
        }
    }

    /// <summary>Most frames a finding shows of one thread's stack.</summary>
    public const int MaxStackTextFrames = 64;

    /// <summary>
    /// The managed stack as a finding shows it: every frame that names a method (runtime transition frames such as
    /// [InlinedCallFrame] carry none), innermost first, cut at <see cref="MaxStackTextFrames"/> with a last "...".
    /// </summary>
    public IReadOnlyList<string> StackText()
    {
        var methods = Frames.Where(f => f.MethodName is not null).ToList();
        var text = methods.Take(MaxStackTextFrames).Select(f => f.Display).ToList();
        if (methods.Count > MaxStackTextFrames)
            text.Add($"... {methods.Count - MaxStackTextFrames} more frames");
        return text;
    }

    /// <summary>
    /// Whether this thread's registers or stack hold <paramref name="address"/>. A conservative scan of the
    /// raw stack words, not the DAC's GC-info root walk: that walk crashes the DAC (SIGSEGV, uncatchable)
    /// on threads inside .NET 9+ exception dispatch, which is exactly where threads on a corrupt
    /// Dictionary spend their time. A stale copy can match; callers pair this with the thread's frames.
    /// </summary>
    public bool References(ulong address)
    {
        HashSet<ulong> words;
        lock (_gate)
            words = _stackWords ??= ReadStackWords();
        return address != 0 && words.Contains(address);
    }

    private IReadOnlyList<ManagedFrame> ReadFrames()
    {
        if (ClrThread is null)
            return [];
        var frames = new List<ManagedFrame>();
        try
        {
            foreach (ClrStackFrame frame in ClrThread.EnumerateStackTrace(includeContext: false))
            {
                if (frames.Count >= _limits.MaxFramesPerThread)
                {
                    StackProblem = $"stack cut at {_limits.MaxFramesPerThread} frames";
                    break;
                }
                frames.Add(Convert(frame));
            }
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            StackProblem = $"stack walk stopped: {e.Message.ReplaceLineEndings(" ")}";
        }
        return frames;
    }

    private HashSet<ulong> ReadStackWords()
    {
        var words = new HashSet<ulong>();
        StackScan.Collect(_target, OsThreadId, Frames, words);
        return words;
    }

    private static ManagedFrame Convert(ClrStackFrame frame)
    {
        ClrMethod? method = frame.Method;
        if (method is null)
            return new ManagedFrame(frame.InstructionPointer, frame.StackPointer, null, null, $"[{frame.FrameName ?? frame.Kind.ToString()}]");
        string? typeName = method.Type?.Name;
        string display = method.Signature ?? $"{typeName}.{method.Name}";
        return new ManagedFrame(frame.InstructionPointer, frame.StackPointer, typeName, method.Name, display);
    }
}
