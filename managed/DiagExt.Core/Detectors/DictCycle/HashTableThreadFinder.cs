using DiagExt.Core.Findings;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// Finds the threads inside Dictionary/HashSet code on a given instance: proven when the thread's stack
/// roots reference the instance or its arrays, or by type when the instance is the only corrupt one of
/// its (shared-code) type.
/// </summary>
internal static class HashTableThreadFinder
{
    public sealed record Result(IReadOnlyList<ThreadRef> Threads, IReadOnlyList<uint> InResize);

    public static Result Find(Target target, HashTableInstance instance, string collectionTypeName, bool onlyCorruptOfItsType)
    {
        var threads = new List<ThreadRef>();
        var inResize = new List<uint>();
        foreach (TargetThread thread in target.Threads)
        {
            IReadOnlyList<ManagedFrame> frames = thread.Frames;
            int first = IndexOfCollectionFrame(frames);
            if (first < 0)
                continue;
            ManagedFrame frame = frames[first];
            bool proven = thread.References(instance.Address) || thread.References(instance.EntriesArray) || thread.References(instance.BucketsArray);
            if (!proven && !(onlyCorruptOfItsType && SharesCode(frame.TypeName!, collectionTypeName)))
                continue;

            if (frames.Skip(first).TakeWhile(HashTableTypes.IsCollectionMethod).Any(f => f.MethodName == "Resize"))
                inResize.Add(thread.OsThreadId);
            threads.Add(ToRef(thread, frame, CallerOf(frames, first), proven));
        }
        return new Result(threads, inResize);
    }

    private static int IndexOfCollectionFrame(IReadOnlyList<ManagedFrame> frames)
    {
        for (int i = 0; i < frames.Count; i++)
            if (HashTableTypes.IsCollectionMethod(frames[i]))
                return i;
        return -1;
    }

    /// <summary>The first frame below the collection's own frames that belongs to the user's code, else the first outside the collection.</summary>
    private static ManagedFrame? CallerOf(IReadOnlyList<ManagedFrame> frames, int first)
    {
        ManagedFrame? outside = null;
        for (int i = first + 1; i < frames.Count; i++)
        {
            ManagedFrame f = frames[i];
            if (f.TypeName is null || HashTableTypes.IsCollectionMethod(f))
                continue;
            outside ??= f;
            if (!f.TypeName.StartsWith("System.", StringComparison.Ordinal) && !f.TypeName.StartsWith("Microsoft.", StringComparison.Ordinal))
                return f;
        }
        return outside;
    }

    private static ThreadRef ToRef(TargetThread thread, ManagedFrame frame, ManagedFrame? caller, bool proven)
    {
        ThreadCpuTime? cpu = thread.Cpu;
        return new ThreadRef
        {
            OsThreadId = thread.OsThreadId,
            ManagedThreadId = thread.ManagedThreadId,
            Role = proven
                ? $"inside {frame.MethodName} on this instance (its registers or stack hold it)"
                : $"inside {frame.MethodName} on an instance of this type (the only corrupt one of its type; its stack does not name which)",
            Frame = frame.ShortName,
            CallerFrame = caller?.ShortName,
            UserCpuSeconds = cpu?.User.TotalSeconds,
            KernelCpuSeconds = cpu?.Kernel.TotalSeconds,
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
