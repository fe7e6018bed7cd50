using DiagExt.Core.Targets.Stacks;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets;

/// <summary>
/// One OS thread of the target with what DiagExt knows about it. The managed stack and the live stack's words
/// (<see cref="Stack"/>) are read once, on first use, and shared by every detector (detectors may run at once: the reads
/// are made under a lock). "Does this thread hold that object" is <see cref="Holds(ulong)"/>: the one rule every
/// detector shares.
/// </summary>
public sealed class TargetThread
{
    private readonly Target _target;
    private readonly Limits _limits;
    private readonly object _gate = new();
    private IReadOnlyList<ManagedFrame>? _frames;
    private ThreadStack? _stack;
    private ulong? _currentException;

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
    /// The live stack as evidence: its words between the stack pointer and the base, its registers, and which frames are
    /// real. A conservative read of raw words, not the DAC's GC-info root walk: that walk crashes the DAC (SIGSEGV,
    /// uncatchable) on threads inside .NET 9+ exception dispatch, which is exactly where threads on a corrupt Dictionary
    /// spend their time.
    /// </summary>
    public ThreadStack Stack
    {
        get
        {
            IReadOnlyList<ManagedFrame> frames = Frames;
            lock (_gate)
                return _stack ??= ThreadStack.Read(_target, OsThreadId, ClrThread, frames);
        }
    }

    /// <summary>A hash of its registers and live stack, pointers left out (<see cref="ThreadFingerprint"/>): to tell across dumps whether it ran.</summary>
    public string? Fingerprint => ThreadFingerprint.Of(Stack, _target.Runtime?.Heap, _target.PointerSize, managedOnly: _target.Kind == TargetKind.WindowsMinidump);

    /// <summary>The exception this thread is throwing or handling now (its address), or 0.</summary>
    public ulong CurrentException
    {
        get
        {
            lock (_gate)
                return _currentException ??= ReadCurrentException();
        }
    }

    /// <summary>
    /// Whether this thread holds the object at <paramref name="address"/>: it is the thread's current exception; or a
    /// register or a word of its live stack holds the address and either the word lies in the part of the stack of a real
    /// frame running one of the object's methods (its <c>this</c>), or the object is live (reachable from a root other than
    /// a stack). Any other copy of the address is stale memory, not a reference: <see cref="StackHold.Kind"/> says which,
    /// and <see cref="StackHold.Note"/> words what was set aside.
    /// </summary>
    public StackHold Holds(ulong address) => Judge(address, Stack.Find(address), Stack.Frames.Count - 1);

    /// <summary>
    /// As <see cref="Holds(ulong)"/>, for a claim about frame <paramref name="frame"/> (an index into <see cref="Frames"/>):
    /// only the words of that frame and of the frames it called (and the registers) count, and none when the frame is
    /// set aside (<see cref="ThreadStack.IsReal"/>).
    /// </summary>
    public StackHold HoldsThrough(ulong address, int frame) => Judge(address, Stack.FindThrough(address, frame), frame);

    /// <param name="outermost">The outermost frame whose part of the stack the claim may rest on.</param>
    private StackHold Judge(ulong address, StackWord? word, int outermost)
    {
        if (address == 0)
            return StackHold.None(address);
        if (address == CurrentException)
            return new StackHold(address, HoldKind.CurrentException, word, TypeNameOf(address));
        if (word is null)
            return StackHold.None(address);
        IReadOnlyList<string> types = TypeChainOf(address);
        string? typeName = types.FirstOrDefault();
        if (ThisOfFrame(address, types, outermost) is { } self)
            return new StackHold(address, HoldKind.FrameThis, self, typeName);
        HoldKind kind = _target.Liveness?.Of(address) switch
        {
            Liveness.Live => HoldKind.Live,
            Liveness.Dead => HoldKind.Stale,
            _ => HoldKind.Unsettled,
        };
        return new StackHold(address, kind, word, typeName);
    }

    /// <summary>The word holding <paramref name="address"/> in the part of the stack of a real frame (up to <paramref name="outermost"/>) that runs a method of one of <paramref name="types"/>.</summary>
    private StackWord? ThisOfFrame(ulong address, IReadOnlyList<string> types, int outermost)
    {
        ThreadStack stack = Stack;
        for (int i = 0; i <= outermost && i < stack.Frames.Count; i++)
            if (stack.Frames[i].TypeName is { } frameType && stack.IsReal(i) && types.Any(t => SharedCode.Runs(frameType, t))
                && stack.FindInFrame(address, i) is { } word)
                return word;
        return null;
    }

    /// <summary>Most base types followed from an object's type (a chain longer than this is corrupt data).</summary>
    private const int MaxBaseTypes = 64;

    /// <summary>The object's type name and its base types' but System.Object (a frame of a base type's method runs on it too); empty when unreadable.</summary>
    private IReadOnlyList<string> TypeChainOf(ulong address)
    {
        var names = new List<string>();
        try
        {
            for (ClrType? type = _target.Runtime is { } runtime ? ObjectTypes.Of(runtime.Heap, address) : null; type is not null && names.Count < MaxBaseTypes; type = type.BaseType)
                if (type.Name is { } name and not "System.Object") // every object's: no frame of it says whose it is
                    names.Add(name);
        }
        catch (Exception e) when (CorruptType.Is(e))
        {
            // What was read so far is what the frames are matched against.
        }
        return names;
    }

    private string? TypeNameOf(ulong address)
    {
        try
        {
            return _target.Runtime is { } runtime ? ObjectTypes.Of(runtime.Heap, address)?.Name : null;
        }
        catch (Exception e) when (CorruptType.Is(e))
        {
            return null;
        }
    }

    private ulong ReadCurrentException()
    {
        try
        {
            return ClrThread?.CurrentException?.Address ?? 0;
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            return 0; // no exception tracker readable for this thread
        }
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
