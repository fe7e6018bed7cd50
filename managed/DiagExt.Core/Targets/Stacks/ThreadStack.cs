using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets.Stacks;

/// <summary>
/// The live part of one thread's stack, as evidence: the words between its stack pointer (from its registers) and its
/// base, its registers, and its managed frames sorted into real ones and ones set aside. A frame is set aside when its
/// stack pointer is 0 or outside the live stack (the stack walk gave a frame the thread is not in); a claim about a frame
/// may rest only on the words of that frame's range (its stack pointer up to its caller's). Words below the stack pointer
/// are memory the thread has left: never read. Whether a word found here makes the thread hold an object is the next
/// question (<see cref="TargetThread.Holds(ulong)"/>): a stack keeps stale copies in slots no live code uses.
/// </summary>
public sealed class ThreadStack
{
    private readonly ulong[] _registers;
    private readonly ulong[] _words;
    private readonly int _pointerSize;
    private readonly string?[] _frameProblems;
    private Dictionary<ulong, int>? _firstIndex;

    private ThreadStack(IReadOnlyList<ManagedFrame> frames, ulong stackPointer, StackRange live, ulong[] registers, ulong[] words, int pointerSize, List<string> notes)
    {
        Frames = frames;
        StackPointer = stackPointer;
        Live = live;
        _registers = registers;
        _words = words;
        _pointerSize = pointerSize;
        _frameProblems = [.. frames.Select(f => ProblemOf(f, stackPointer, live))];
        for (int i = 0; i < frames.Count; i++)
            if (_frameProblems[i] is { } problem)
                notes.Add($"frame {i} ({frames[i].ShortName}) is not evidence: {problem}");
        Notes = notes;
    }

    /// <summary>How much of the live stack above the stack pointer is read when the base is unknown.</summary>
    private const ulong SlackWhenBaseUnknown = 64 * 1024;

    /// <summary>The managed frames as the stack walk gave them, innermost first (set-aside ones included: <see cref="IsReal"/>).</summary>
    public IReadOnlyList<ManagedFrame> Frames { get; }

    /// <summary>The thread's stack pointer from its registers; 0 when the dump has no register context for it.</summary>
    public ulong StackPointer { get; }

    /// <summary>The live stack: from the stack pointer up to the base. Empty when neither is known.</summary>
    public StackRange Live { get; }

    /// <summary>What was not read or not believed, for --verbose: frames set aside and why, a stack cut at the limit.</summary>
    public IReadOnlyList<string> Notes { get; }

    /// <summary>Why frame <paramref name="index"/> is not evidence (stack pointer 0 or outside the live stack), or null.</summary>
    public string? FrameProblem(int index) => _frameProblems[index];

    /// <summary>Whether frame <paramref name="index"/> is one the thread is really in.</summary>
    public bool IsReal(int index) => index >= 0 && index < _frameProblems.Length && _frameProblems[index] is null;

    /// <summary>
    /// Frame <paramref name="index"/>'s own part of the stack: from its stack pointer up to the nearest real caller's
    /// (or the base); null for a frame set aside.
    /// </summary>
    public StackRange? RangeOf(int index) => IsReal(index) ? new StackRange(Frames[index].StackPointer, CallerStackPointer(index)) : null;

    /// <summary>Every value the thread holds: its registers first, then its live stack from the stack pointer up.</summary>
    public IEnumerable<StackWord> Words => RegisterWords.Concat(WordsIn(Live));

    /// <summary>The words of frame <paramref name="index"/>'s own range (no registers); none for a frame set aside.</summary>
    public IEnumerable<StackWord> WordsInFrame(int index) => RangeOf(index) is { } range ? WordsIn(range) : [];

    /// <summary>
    /// The words of frame <paramref name="index"/> and of everything it called: its registers and the stack from the
    /// stack pointer up to the frame's caller. None for a frame set aside.
    /// </summary>
    public IEnumerable<StackWord> WordsThrough(int index) => RangeOf(index) is { } range ? RegisterWords.Concat(WordsIn(new StackRange(Live.Low, range.High))) : [];

    /// <summary>Where the thread holds <paramref name="value"/>: a register, else the innermost live stack slot; null when nowhere.</summary>
    public StackWord? Find(ulong value)
    {
        if (value == 0)
            return null;
        if (Array.IndexOf(_registers, value) >= 0)
            return new StackWord(0, value);
        _firstIndex ??= IndexWords();
        return _firstIndex.TryGetValue(value, out int i) ? new StackWord(AddressOf(i), value) : null;
    }

    /// <summary>Where frame <paramref name="index"/> or a frame it called holds <paramref name="value"/> (see <see cref="WordsThrough"/>).</summary>
    public StackWord? FindThrough(ulong value, int index) => value == 0 ? null : WordsThrough(index).Cast<StackWord?>().FirstOrDefault(w => w!.Value.Value == value);

    /// <summary>Where frame <paramref name="index"/>'s own range holds <paramref name="value"/>.</summary>
    public StackWord? FindInFrame(ulong value, int index) => value == 0 ? null : WordsInFrame(index).Cast<StackWord?>().FirstOrDefault(w => w!.Value.Value == value);

    internal static ThreadStack Read(Target target, uint osThreadId, ClrThread? thread, IReadOnlyList<ManagedFrame> frames)
    {
        var notes = new List<string>();
        ThreadRegisterWords? registers = ThreadRegisterWords.Read(target, osThreadId);
        ulong stackPointer = registers?.StackPointer ?? 0;
        ulong low = stackPointer;
        if (low == 0)
        {
            // No register context: the innermost frame the walk gave is the best guess of where the live stack starts.
            low = frames.Where(f => f.StackPointer != 0).Select(f => f.StackPointer).DefaultIfEmpty(0UL).Min();
            if (frames.Count > 0)
                notes.Add(registers is null ? "no register context: the live stack is taken from the innermost managed frame up" : "no stack pointer in its register context: the live stack is taken from the innermost managed frame up");
        }
        var (stackBase, _) = StackBase.Find(target, osThreadId, thread, low);
        if (low != 0 && stackBase == 0)
        {
            ulong outermost = frames.Select(f => f.StackPointer).DefaultIfEmpty(0UL).Max();
            stackBase = Math.Max(outermost, low) + SlackWhenBaseUnknown;
            notes.Add($"its stack's base is unknown: read up to 0x{stackBase:x} (past its outermost frame)");
        }
        var live = new StackRange(low, Math.Max(low, stackBase));
        ulong limit = (ulong)target.Limits.MaxStackScanBytes;
        var read = live.Length > limit ? live with { High = live.Low + limit } : live;
        if (read != live)
            notes.Add($"its live stack ({live.Length:N0} bytes) was read up to {limit:N0} bytes above the stack pointer");
        ulong[] words = read.Length > 0 ? StackScan.Read(target, read) : [];
        return new ThreadStack(frames, stackPointer, live, registers?.Words ?? [], words, target.PointerSize, notes);
    }

    private static string? ProblemOf(ManagedFrame frame, ulong stackPointer, StackRange live)
    {
        ulong sp = frame.StackPointer;
        if (sp == 0)
            return "its stack pointer is 0";
        if (live.Length == 0)
            return null; // nothing to check it against
        // Below the thread's own stack pointer is memory it has left (or another thread's stack); at or above the base, not its stack.
        if (sp < live.Low)
            return stackPointer != 0 ? $"its stack pointer 0x{sp:x} is below the thread's (0x{stackPointer:x}): not in its live stack {live}" : null;
        if (sp >= live.High)
            return $"its stack pointer 0x{sp:x} is above its stack's base: not in its live stack {live}";
        return null;
    }

    private ulong CallerStackPointer(int index)
    {
        ulong sp = Frames[index].StackPointer;
        ulong caller = Live.High;
        for (int j = index + 1; j < Frames.Count; j++)
            if (IsReal(j) && Frames[j].StackPointer > sp && Frames[j].StackPointer < caller)
                caller = Frames[j].StackPointer;
        return caller;
    }

    private IEnumerable<StackWord> RegisterWords => _registers.Select(r => new StackWord(0, r));

    private IEnumerable<StackWord> WordsIn(StackRange range)
    {
        ulong first = Live.Low & ~(ulong)(_pointerSize - 1);
        if (range.High <= first || _words.Length == 0)
            yield break;
        ulong from = Math.Max(range.Low, first);
        int start = (int)Math.Min((ulong)_words.Length, (from - first + (ulong)_pointerSize - 1) / (ulong)_pointerSize);
        int end = (int)Math.Min((ulong)_words.Length, (range.High - first) / (ulong)_pointerSize);
        for (int i = start; i < end; i++)
            if (_words[i] != 0)
                yield return new StackWord(AddressOf(i), _words[i]);
    }

    private ulong AddressOf(int index) => (Live.Low & ~(ulong)(_pointerSize - 1)) + (ulong)index * (ulong)_pointerSize;

    private Dictionary<ulong, int> IndexWords()
    {
        var first = new Dictionary<ulong, int>();
        for (int i = 0; i < _words.Length; i++)
            if (_words[i] != 0)
                first.TryAdd(_words[i], i);
        return first;
    }
}
