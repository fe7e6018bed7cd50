using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using DiagExt.Core.Targets.Stacks;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// Finds the threads a corrupt instance involves, and says how each is tied to it. The JIT inlines Dictionary's
/// indexer, TryInsert and FindValue into their callers, so a thread hurt by the table often has no Dictionary frame:
/// it throws from ThrowHelper straight out of the user's method, handles the exception, or is back in the user's loop.
/// In order of strength: a collection frame; a ThrowHelper concurrency throw; its current exception (or a live one its
/// stack holds) thrown by the table; the instance in a user frame's part of its stack. Each is proven by the instance (or
/// its arrays) held by the thread (<see cref="TargetThread.HoldsThrough"/>: in the claimed frame or what it called, and
/// the instance live), or else by type only: the only corrupt table of its (shared-code) type, or of the process. Only real
/// frames count (<see cref="ThreadStack.IsReal"/>); a stale copy of an address and a frame set aside are never a reason
/// to list a thread, only a line in <see cref="Result.SetAside"/>.
/// </summary>
internal static class HashTableThreadFinder
{
    /// <param name="SetAside">Evidence weighed and not counted, one line per thread not listed for it (for --verbose).</param>
    public sealed record Result(IReadOnlyList<ThreadRef> Threads, IReadOnlyList<uint> InResize, IReadOnlyList<string> SetAside);

    /// <summary>What ties the table to this search: the instance, its type, and whether it is the only corrupt one.</summary>
    public sealed record Subject(HashTableInstance Instance, string TypeName, bool OnlyCorruptOfItsType, bool OnlyCorruptTable);

    private sealed record Involvement(string Role, ManagedFrame? Frame, int FrameIndex);

    /// <summary>Most set-aside lines kept per table: the rest are counted.</summary>
    private const int MaxSetAside = 16;

    public static Result Find(Target target, Subject subject, IReadOnlyList<CollectionException> exceptions)
    {
        var threads = new List<ThreadRef>();
        var inResize = new List<uint>();
        var setAside = new List<string>();
        int setAsideCount = 0;
        foreach (TargetThread thread in target.Threads)
        {
            IReadOnlyList<ManagedFrame> frames = thread.Frames;
            var evidence = new Evidence(thread, subject, exceptions);
            Involvement? found = Enumerable.Range(0, frames.Count).Any(i => frames[i].MethodName is not null && evidence.Real(i))
                ? Classify(evidence)
                : evidence.NoRealFrames(); // whatever its registers hold, it runs no code of the table's callers
            if (found is null)
            {
                if (evidence.SetAsideLine() is { } line && setAsideCount++ < MaxSetAside)
                    setAside.Add(line);
                continue;
            }
            if (frames.Skip(found.FrameIndex).TakeWhile(HashTableTypes.IsCollectionMethod).Any(f => f.MethodName == "Resize"))
                inResize.Add(thread.OsThreadId);
            threads.Add(ToRef(thread, found, CallerOf(frames, found.FrameIndex)));
        }
        if (setAsideCount > MaxSetAside)
            setAside.Add($"... and {setAsideCount - MaxSetAside} more threads with evidence set aside");
        return new Result(threads, inResize, setAside);
    }

    private static Involvement? Classify(Evidence e)
    {
        const string onStack = "its registers or stack hold this instance";
        IReadOnlyList<ManagedFrame> frames = e.Frames;
        Subject subject = e.Subject;
        int collection = e.IndexOf(HashTableTypes.IsCollectionMethod);
        if (collection >= 0)
        {
            ManagedFrame frame = frames[collection];
            if (e.HoldsTableThrough(collection))
                return new($"inside {frame.MethodName} on this instance ({onStack})", frame, collection);
            if (subject.OnlyCorruptOfItsType && SharedCode.Runs(frame.TypeName!, subject.TypeName))
                return new($"inside {frame.MethodName} on an instance of this type (the only corrupt one of its type; its stack does not name which)", frame, collection);
            return null; // inside another instance's code
        }

        string? byType = subject.OnlyCorruptTable ? "the only corrupt table in the process; its stack does not name it" : null;
        int thrower = e.IndexOf(CollectionExceptions.IsConcurrencyThrowHelper);
        if (thrower >= 0)
        {
            int caller = e.NextReal(thrower);
            bool holds = e.HoldsTableThrough(caller >= 0 ? caller : thrower);
            if (holds || byType is not null)
            {
                string from = caller >= 0 ? $" called by {frames[caller].ShortName} (the JIT inlined the collection's code there)" : "";
                return new($"throwing from {frames[thrower].ShortName}{from}; {(holds ? onStack : byType)}", frames[thrower], thrower);
            }
        }

        int user = e.IndexOf(f => f.IsUserCode);
        if (e.ThrownByTable() is { } exception)
        {
            bool holds = e.HoldsTableAnywhere();
            if (holds || byType is not null || exception.Proven)
            {
                int at = user >= 0 ? user : e.NextReal(-1);
                string proof = holds ? onStack : exception.Proven ? "its exception's stack trace runs through this type's code" : byType!;
                return new($"{exception.What}; {proof}", frames[at], at);
            }
        }

        if (user >= 0 && e.HoldsTableThrough(user))
            return new($"in {frames[user].ShortName}; {onStack} (a caller the JIT inlines the collection's methods into, or one holding it)", frames[user], user);
        return null;
    }

    /// <summary>What one thread offers as evidence about one table, asked once each, with what was set aside on the way.</summary>
    private sealed class Evidence(TargetThread thread, Subject subject, IReadOnlyList<CollectionException> exceptions)
    {
        private readonly List<string> _setAside = [];

        public IReadOnlyList<ManagedFrame> Frames { get; } = thread.Frames;

        public Subject Subject => subject;

        public bool Real(int index) => thread.Stack.IsReal(index);

        /// <summary>The first real frame that matches, or -1.</summary>
        public int IndexOf(Func<ManagedFrame, bool> match)
        {
            for (int i = 0; i < Frames.Count; i++)
            {
                if (!match(Frames[i]))
                    continue;
                if (Real(i))
                    return i;
                SetAside($"frame {Frames[i].ShortName} is not evidence: {thread.Stack.FrameProblem(i)}");
            }
            return -1;
        }

        /// <summary>For a thread with no real managed method: notes the collection and ThrowHelper frames set aside; never involved.</summary>
        public Involvement? NoRealFrames()
        {
            _ = IndexOf(HashTableTypes.IsCollectionMethod);
            _ = IndexOf(CollectionExceptions.IsConcurrencyThrowHelper);
            return null;
        }

        /// <summary>The first real frame after <paramref name="index"/> that names a method, or -1.</summary>
        public int NextReal(int index)
        {
            for (int i = index + 1; i < Frames.Count; i++)
                if (Frames[i].MethodName is not null && Real(i))
                    return i;
            return -1;
        }

        /// <summary>Whether frame <paramref name="index"/> or a frame it called holds the instance or one of its arrays.</summary>
        public bool HoldsTableThrough(int index) => TableAddresses.Any(a => Counts(thread.HoldsThrough(a, index)));

        public bool HoldsTableAnywhere() => TableAddresses.Any(a => Counts(thread.Holds(a)));

        private IEnumerable<ulong> TableAddresses => [subject.Instance.Address, subject.Instance.EntriesArray, subject.Instance.BucketsArray];

        /// <summary>
        /// Its current exception, or a live exception object its stack holds, that the table threw: "InvalidOperationException
        /// thrown in ThrowHelper.X from Program.Modify (its current exception)". Proven when its frames name this type's code.
        /// </summary>
        public ThreadException? ThrownByTable()
        {
            ulong current = thread.CurrentException;
            foreach (CollectionException e in exceptions)
            {
                bool isCurrent = e.Address == current && current != 0;
                if (!isCurrent && !Counts(thread.Holds(e.Address)))
                    continue;
                bool proven = e.RunsThrough(subject.TypeName);
                if (e.CollectionTypes.Count > 0 && !proven)
                    continue; // another collection type's exception
                string where = e.Thrower is null ? "being thrown" : e.Caller is null ? $"thrown in {e.Thrower}" : $"thrown in {e.Thrower} from {e.Caller}";
                return new(isCurrent ? $"handling {e.Type} {where} (its current exception)" : $"its stack holds {e.Type} {where} (caught, or being handled)", proven);
            }
            return null;
        }

        /// <summary>One line for a thread not listed, naming what was set aside; null when nothing was.</summary>
        public string? SetAsideLine() =>
            _setAside.Count == 0 ? null : $"thread 0x{thread.OsThreadId:x} not listed: {string.Join("; ", _setAside.Distinct())}";

        private bool Counts(StackHold hold)
        {
            if (hold.Note is { } note)
                SetAside(note);
            return hold.Counts;
        }

        private void SetAside(string line)
        {
            if (_setAside.Count < 4)
                _setAside.Add(line);
        }
    }

    private sealed record ThreadException(string What, bool Proven);

    /// <summary>The first frame below <paramref name="first"/> that belongs to the user's code, else the first outside the collection.</summary>
    private static ManagedFrame? CallerOf(IReadOnlyList<ManagedFrame> frames, int first)
    {
        ManagedFrame? outside = null;
        for (int i = first + 1; i < frames.Count; i++)
        {
            ManagedFrame f = frames[i];
            if (f.TypeName is null || HashTableTypes.IsCollectionMethod(f))
                continue;
            outside ??= f;
            if (f.IsUserCode)
                return f;
        }
        return outside;
    }

    private static ThreadRef ToRef(TargetThread thread, Involvement found, ManagedFrame? caller)
    {
        ThreadCpuTime? cpu = thread.Cpu;
        return new ThreadRef
        {
            OsThreadId = thread.OsThreadId,
            ManagedThreadId = thread.ManagedThreadId,
            Role = found.Role,
            Frame = found.Frame?.ShortName,
            CallerFrame = caller?.ShortName,
            Stack = thread.StackText(),
            UserCpu = cpu?.User,
            KernelCpu = cpu?.Kernel,
            RecentCpuShare = cpu?.RecentShare,
        };
    }
}
