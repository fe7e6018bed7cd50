using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// Finds the threads a corrupt instance involves, and says how each is tied to it. The JIT inlines Dictionary's
/// indexer, TryInsert and FindValue into their callers, so a thread hurt by the table often has no Dictionary frame:
/// it throws from ThrowHelper straight out of the user's method, handles the exception, or is back in the user's loop.
/// In order of strength: a collection frame; a ThrowHelper concurrency throw; its current exception (or one its stack
/// holds) thrown by the table; the instance alone in its registers or stack words. Each is proven by the instance (or its
/// arrays) on the thread's stack, or else by type only: the only corrupt table of its (shared-code) type, or of the process.
/// </summary>
internal static class HashTableThreadFinder
{
    public sealed record Result(IReadOnlyList<ThreadRef> Threads, IReadOnlyList<uint> InResize);

    /// <summary>What ties the table to this search: the instance, its type, and whether it is the only corrupt one.</summary>
    public sealed record Subject(HashTableInstance Instance, string TypeName, bool OnlyCorruptOfItsType, bool OnlyCorruptTable);

    private sealed record Involvement(string Role, ManagedFrame? Frame, int FrameIndex);

    public static Result Find(Target target, Subject subject, IReadOnlyList<CollectionException> exceptions)
    {
        var threads = new List<ThreadRef>();
        var inResize = new List<uint>();
        HashTableInstance instance = subject.Instance;
        foreach (TargetThread thread in target.Threads)
        {
            IReadOnlyList<ManagedFrame> frames = thread.Frames;
            if (!frames.Any(f => f.MethodName is not null))
                continue; // no managed method on its stack: whatever its registers hold, it runs no code of the table's callers
            bool holds = thread.References(instance.Address) || thread.References(instance.EntriesArray) || thread.References(instance.BucketsArray);
            if (Classify(thread, frames, holds, subject, exceptions) is not { } found)
                continue;
            if (frames.Skip(found.FrameIndex).TakeWhile(HashTableTypes.IsCollectionMethod).Any(f => f.MethodName == "Resize"))
                inResize.Add(thread.OsThreadId);
            threads.Add(ToRef(thread, found, CallerOf(frames, found.FrameIndex)));
        }
        return new Result(threads, inResize);
    }

    private static Involvement? Classify(TargetThread thread, IReadOnlyList<ManagedFrame> frames, bool holds, Subject subject, IReadOnlyList<CollectionException> exceptions)
    {
        const string onStack = "its registers or stack hold this instance";
        int collection = IndexOf(frames, HashTableTypes.IsCollectionMethod);
        if (collection >= 0)
        {
            ManagedFrame frame = frames[collection];
            if (holds)
                return new($"inside {frame.MethodName} on this instance ({onStack})", frame, collection);
            if (subject.OnlyCorruptOfItsType && SharesCode(frame.TypeName!, subject.TypeName))
                return new($"inside {frame.MethodName} on an instance of this type (the only corrupt one of its type; its stack does not name which)", frame, collection);
            return null; // inside another instance's code
        }

        string? byType = subject.OnlyCorruptTable ? "the only corrupt table in the process; its stack does not name it" : null;
        int thrower = IndexOf(frames, CollectionExceptions.IsConcurrencyThrowHelper);
        if (thrower >= 0 && (holds || byType is not null))
        {
            string from = thrower + 1 < frames.Count ? $" called by {frames[thrower + 1].ShortName} (the JIT inlined the collection's code there)" : "";
            return new($"throwing from {frames[thrower].ShortName}{from}; {(holds ? onStack : byType)}", frames[thrower], thrower);
        }

        if (ThrownByTable(thread, exceptions, subject) is { } exception && (holds || byType is not null || exception.Proven))
        {
            int user = IndexOf(frames, f => f.IsUserCode);
            string proof = holds ? onStack : exception.Proven ? "its exception's stack trace runs through this type's code" : byType!;
            return new($"{exception.What}; {proof}", user >= 0 ? frames[user] : frames[0], user >= 0 ? user : 0);
        }

        if (holds)
        {
            int user = IndexOf(frames, f => f.IsUserCode);
            ManagedFrame at = user >= 0 ? frames[user] : frames[0];
            return new($"in {at.ShortName}; {onStack} (a caller the JIT inlines the collection's methods into, or one holding it)", at, user >= 0 ? user : 0);
        }
        return null;
    }

    private sealed record ThreadException(string What, bool Proven);

    /// <summary>
    /// Its current exception, or an exception object its stack holds, that the table threw: "InvalidOperationException
    /// thrown in ThrowHelper.X from Program.Modify (its current exception)". Proven when its frames name this type's code.
    /// </summary>
    private static ThreadException? ThrownByTable(TargetThread thread, IReadOnlyList<CollectionException> exceptions, Subject subject)
    {
        ulong current = 0;
        try
        {
            current = thread.ClrThread?.CurrentException?.Address ?? 0;
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            // No exception tracker readable for this thread.
        }
        foreach (CollectionException e in exceptions)
        {
            bool isCurrent = e.Address == current && current != 0;
            if (!isCurrent && !thread.References(e.Address))
                continue;
            bool proven = e.RunsThrough(subject.TypeName);
            if (e.CollectionTypes.Count > 0 && !proven)
                continue; // another collection type's exception
            string where = e.Thrower is null ? "being thrown" : e.Caller is null ? $"thrown in {e.Thrower}" : $"thrown in {e.Thrower} from {e.Caller}";
            return new(isCurrent ? $"handling {e.Type} {where} (its current exception)" : $"its stack holds {e.Type} {where} (caught, or being handled)", proven);
        }
        return null;
    }

    private static int IndexOf(IReadOnlyList<ManagedFrame> frames, Func<ManagedFrame, bool> match)
    {
        for (int i = 0; i < frames.Count; i++)
            if (match(frames[i]))
                return i;
        return -1;
    }

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

    /// <summary>
    /// Whether a frame's type (shared generic code: reference type arguments appear as System.__Canon)
    /// can be running on an instance of <paramref name="instanceType"/>.
    /// </summary>
    internal static bool SharesCode(string frameType, string instanceType)
    {
        (string frameName, List<string> frameArgs) = Split(frameType);
        (string instanceName, List<string> instanceArgs) = Split(instanceType);
        if (frameName != instanceName || frameArgs.Count != instanceArgs.Count)
            return false;
        for (int i = 0; i < frameArgs.Count; i++)
            if (frameArgs[i] != instanceArgs[i] && frameArgs[i] != "System.__Canon")
                return false;
        return true;
    }

    private static (string Name, List<string> Args) Split(string type)
    {
        int open = type.IndexOf('<');
        if (open < 0 || !type.EndsWith('>'))
            return (type, []);
        var args = new List<string>();
        int depth = 0, start = open + 1;
        for (int i = open + 1; i < type.Length - 1; i++)
        {
            char c = type[i];
            if (c == '<')
                depth++;
            else if (c == '>')
                depth--;
            else if (c == ',' && depth == 0)
            {
                args.Add(type[start..i].Trim());
                start = i + 1;
            }
        }
        args.Add(type[start..^1].Trim());
        return (type[..open], args);
    }
}
