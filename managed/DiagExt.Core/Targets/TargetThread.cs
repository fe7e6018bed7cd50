using DiagExt.Core.Errors;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets;

/// <summary>
/// One OS thread of the target with what DiagExt knows about it. The managed stack and its roots are
/// read once, on first use, and shared by every detector.
/// </summary>
public sealed class TargetThread
{
    private readonly Limits _limits;
    private IReadOnlyList<ManagedFrame>? _frames;
    private IReadOnlyList<StackRoot>? _roots;
    private HashSet<ulong>? _rootedObjects;

    internal TargetThread(uint osThreadId, ClrThread? clrThread, ThreadCpuTime? cpu, Limits limits)
    {
        OsThreadId = osThreadId;
        ClrThread = clrThread;
        Cpu = cpu;
        _limits = limits;
    }

    public uint OsThreadId { get; }

    public ClrThread? ClrThread { get; }

    public int? ManagedThreadId => ClrThread?.ManagedThreadId;

    public ThreadCpuTime? Cpu { get; }

    /// <summary>Set when the stack walk stopped early (unreadable memory, DAC error).</summary>
    public string? StackProblem { get; private set; }

    /// <summary>Managed frames, innermost first; empty for a thread that never ran managed code.</summary>
    public IReadOnlyList<ManagedFrame> Frames => _frames ??= ReadFrames();

    public IReadOnlyList<StackRoot> StackRoots => _roots ??= ReadRoots();

    /// <summary>Whether this thread's stack or registers reference <paramref name="objectAddress"/>.</summary>
    public bool Roots(ulong objectAddress)
    {
        _rootedObjects ??= [.. StackRoots.Select(r => r.Object)];
        return _rootedObjects.Contains(objectAddress);
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

    private IReadOnlyList<StackRoot> ReadRoots()
    {
        if (ClrThread is null)
            return [];
        var roots = new List<StackRoot>();
        try
        {
            foreach (ClrStackRoot root in ClrThread.EnumerateStackRoots())
            {
                if (roots.Count >= _limits.MaxStackRootsPerThread)
                    break;
                roots.Add(new StackRoot(root.Address, root.Object.Address));
            }
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            StackProblem ??= $"stack roots incomplete: {e.Message.ReplaceLineEndings(" ")}";
        }
        return roots;
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
