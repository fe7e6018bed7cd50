namespace DiagExt.Core;

/// <summary>
/// ClrMD computes a type's element type, fields and layout from its MethodTable and EEClass in target memory, and on
/// a corrupt one it throws whatever its code hits: with the AppDomain's assembly list corrupt, ClrMD knows no module and
/// every type's IsValueType and Fields throw NullReferenceException (ClrDacType.GetElementType, ClrType.CacheFields;
/// found on fuzzed cores). Such a type is unreadable data, not a DiagExt failure.
/// </summary>
public static class CorruptType
{
    public static bool Is(Exception e) => e is not OutOfMemoryException and not OperationCanceledException and not InsufficientExecutionStackException;

    public static string Describe(Exception e) => $"ClrMD could not read its type ({e.GetType().Name}): the runtime data describing it is corrupt";
}
