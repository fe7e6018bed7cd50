using DiagExt.Core.Heap;
using DiagExt.Core.Targets;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.DictCycle;

/// <summary>
/// An exception object that came out of a corrupt Dictionary/HashSet: InvalidOperationException("Operations that change
/// non-concurrent collections must have exclusive access...") thrown by a lookup that ran into a loop, or an
/// IndexOutOfRangeException from the collection's own methods. <see cref="Thrower"/> is where it was thrown (the
/// collection method, or ThrowHelper when the JIT inlined the collection's code into its caller; null before it is thrown), <see cref="Caller"/>
/// the first frame of the user's code; <see cref="CollectionTypes"/> the collection types its frames name.
/// </summary>
internal sealed record CollectionException(ulong Address, string Type, string? Thrower, string? Caller, IReadOnlyList<string> CollectionTypes)
{
    /// <summary>The same exception at another address.</summary>
    public CollectionException At(ulong address) => this with { Address = address };

    /// <summary>Whether its frames name code an instance of <paramref name="collectionType"/> runs (shared generic code included).</summary>
    public bool RunsThrough(string collectionType) => CollectionTypes.Any(t => SharedCode.Runs(t, collectionType));
}

/// <summary>Finds the exceptions a corrupt table threw, among the exception objects of the heap pass.</summary>
internal static class CollectionExceptions
{
    public const string InvalidOperation = "System.InvalidOperationException";
    public const string IndexOutOfRange = "System.IndexOutOfRangeException";

    /// <summary>The start of CoreLib's InvalidOperation_ConcurrentOperationsNotSupported (.NET Core 3.0+) and Framework's wording.</summary>
    private static readonly string[] ConcurrentMessages =
    [
        "Operations that change non-concurrent collections must have exclusive access",
    ];

    /// <summary>Stack trace frames read per exception: the throw site and its callers are near the top.</summary>
    private const int MaxFrames = 16;

    /// <summary>Exceptions examined in detail (their stack traces); past this they are not read.</summary>
    public const int MaxExamined = 20_000;

    public static bool IsCandidateType(string? typeName) => typeName is InvalidOperation or IndexOutOfRange;

    public static IReadOnlyList<CollectionException> Find(Target target, IEnumerable<ClrObject> exceptions, CancellationToken cancellation)
    {
        var found = new List<CollectionException>();
        // Thousands of exceptions thrown from a few sites share their methods: each is resolved once.
        var census = new Census(new ExceptionStackTraces(target));
        foreach (ClrObject obj in exceptions.Take(MaxExamined))
        {
            cancellation.ThrowIfCancellationRequested();
            try
            {
                if (census.Read(obj) is { } e)
                    found.Add(e);
            }
            catch (Exception ex) when (CorruptType.Is(ex))
            {
                // An exception whose fields or stack trace ClrMD cannot read proves nothing either way.
            }
        }
        return found;
    }

    /// <summary>
    /// What each exception says, worked out once per kind: exceptions of one type, with one message string and the same
    /// methods on their stack traces say the same (only their addresses differ), and a hammered table leaves thousands.
    /// </summary>
    private sealed class Census(ExceptionStackTraces stackTraces)
    {
        private readonly Dictionary<(string Type, bool Concurrent, string Methods), CollectionException?> _kinds = [];
        private readonly Dictionary<ulong, bool> _concurrentMessages = [];

        public CollectionException? Read(ClrObject obj)
        {
            string type = obj.Type?.Name ?? "";
            ClrException? exception = obj.AsException();
            if (exception is null)
                return null;
            bool concurrent = type == InvalidOperation && IsConcurrentMessage(obj, exception);
            if (stackTraces.MethodsKey(exception, MaxFrames) is not { } methods)
                return Classify(type, concurrent, stackTraces.Read(exception, MaxFrames))?.At(obj.Address);
            if (!_kinds.TryGetValue((type, concurrent, methods), out CollectionException? kind))
                _kinds[(type, concurrent, methods)] = kind = Classify(type, concurrent, stackTraces.Read(exception, MaxFrames));
            return kind?.At(obj.Address);
        }

        /// <summary>Whether the message starts with the concurrent-operations wording; read once per message string (the runtime hands out one).</summary>
        private bool IsConcurrentMessage(ClrObject obj, ClrException exception)
        {
            if (!obj.TryReadObjectField("_message", out ClrObject message) || message.IsNull)
                return IsConcurrent(exception.Message);
            if (!_concurrentMessages.TryGetValue(message.Address, out bool concurrent))
                _concurrentMessages[message.Address] = concurrent = IsConcurrent(message.IsValid ? message.AsString() : null);
            return concurrent;
        }

        private static bool IsConcurrent(string? message) => message is not null && ConcurrentMessages.Any(m => message.StartsWith(m, StringComparison.Ordinal));
    }

    /// <summary>What an exception of <paramref name="type"/> with these frames says (its address left 0), or null when it is not a collection's.</summary>
    private static CollectionException? Classify(string type, bool concurrentMessage, IReadOnlyList<ManagedFrame> frames)
    {
        var collectionFrames = frames.Where(HashTableTypes.IsCollectionMethod).ToList();
        ManagedFrame? thrower = collectionFrames.FirstOrDefault() ?? frames.FirstOrDefault(IsConcurrencyThrowHelper);
        if (!concurrentMessage && collectionFrames.Count == 0)
            return null;
        ManagedFrame? caller = frames.FirstOrDefault(f => f.IsUserCode);
        // No frames: created with the concurrent-operations message but not thrown yet (or its trace not kept).
        return new CollectionException(0, TypeNames.Short(type), thrower?.ShortName ?? frames.FirstOrDefault()?.ShortName,
            caller?.ShortName, collectionFrames.Select(f => f.TypeName!).Distinct().ToList());
    }

    /// <summary>ThrowHelper's throw for a concurrent modification (or a lookup past the entries): called from the collection, or from its inlined code.</summary>
    public static bool IsConcurrencyThrowHelper(ManagedFrame frame) =>
        frame.TypeName == "System.ThrowHelper" && frame.MethodName is { } m
        && (m.Contains("ConcurrentOperationsNotSupported", StringComparison.Ordinal) || m.StartsWith("ThrowIndexOutOfRangeException", StringComparison.Ordinal));
}
