using DiagExt.Core.Native;
using DiagExt.Core.Native.Stacks;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// A Linux thread's native frames without unwind data: its instruction pointer, then every stack word from the stack
/// pointer up that points into a shared object's code right after a call instruction (the way the Windows scanner finds
/// return addresses, <see cref="NativeStackScanner"/>). Like it, a stale return address left in an unused slot can
/// appear between the real callers. Bounded in bytes and frames; code outside every module (JIT-compiled code) is not
/// a frame here.
/// </summary>
internal static class NativeStack
{
    public const int MaxBytes = 32 * 1024;
    public const int MaxFrames = 24;

    private static readonly HashSet<string> LoaderEntryPoints = new(StringComparer.Ordinal) { "dlopen", "dlmopen", "dlclose" };

    /// <summary>The frames' names, innermost first, up to the thread's innermost managed frame (a P/Invoke's caller) when it has one.</summary>
    public static IReadOnlyList<string> Frames(Target target, ElfModules modules, TargetThread thread, ulong instructionPointer, ulong stackPointer)
    {
        var frames = new List<string> { modules.Name(instructionPointer) };
        if (stackPointer == 0)
            return frames;
        ulong start = stackPointer & ~7UL;
        ulong managed = thread.Frames.Where(f => f.StackPointer > start).Select(f => f.StackPointer).DefaultIfEmpty(ulong.MaxValue).Min();
        byte[] stack = new byte[(int)Math.Min(MaxBytes, managed - start)];
        int read = target.ReadMemory(start, stack);
        Span<byte> before = stackalloc byte[CallSite.MaxLength];
        for (int i = 0; i + 8 <= read && frames.Count < MaxFrames; i += 8)
        {
            ulong value = BinaryReads.U64(stack, i);
            if (value < CallSite.MaxLength || !modules.IsCode(value))
                continue;
            if (target.ReadMemory(value - CallSite.MaxLength, before) != CallSite.MaxLength || !CallSite.EndsWithCall(before))
                continue;
            frames.Add(modules.Name(value));
            // The loader's entry points end the part worth showing: their callers are the thread's managed frames
            // (a P/Invoke from JIT code, which is no module's), and the words beyond are mostly stale.
            if (modules.Function(value) is { } function && LoaderEntryPoints.Contains(function))
                break;
        }
        return frames;
    }
}
