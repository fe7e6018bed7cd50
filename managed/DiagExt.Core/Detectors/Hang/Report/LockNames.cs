namespace DiagExt.Core.Detectors.Hang;

/// <summary>How a lock is called in a finding: the static field that holds it ("AccountLock"), else its short type name.</summary>
internal sealed class LockNames(IReadOnlyDictionary<ulong, string> paths)
{
    /// <summary>Names by type and address only: a watch's look searches no static roots.</summary>
    public static readonly LockNames None = new(new Dictionary<ulong, string>());

    public string? Path(ulong address) => paths.GetValueOrDefault(address);

    public string Name(LockState state)
    {
        if (state.Name is { } own)
            return own;
        if (paths.TryGetValue(state.Address, out string? path))
        {
            int dot = path.LastIndexOf('.');
            return dot >= 0 ? path[(dot + 1)..] : path;
        }
        return Targets.TypeNames.Short(state.TypeName);
    }

    public static string Kind(LockKindName kind) => kind switch
    {
        LockKindName.Monitor => "monitor",
        LockKindName.Lock => "lock",
        LockKindName.RwLock => "rwlock",
        LockKindName.NativeMutex => "native-mutex",
        _ => "semaphore",
    };

    public static string Mode(HoldMode mode) => mode switch
    {
        HoldMode.Read => " (read)",
        HoldMode.Upgradeable => " (upgradeable)",
        HoldMode.Write => " (write)",
        _ => "",
    };

    public HangLock Describe(LockState state) => new()
    {
        Address = state.Address,
        Type = state.TypeName,
        Kind = Kind(state.Kind),
        Path = Path(state.Address),
        HeldBy = state.Holders.Select(h => h.OsThreadId).Distinct().ToList(),
        Detail = string.Join("; ", new[] { state.Detail }.Concat(state.UnknownOwners.Select(u => $"owner {u}")).Where(s => !string.IsNullOrEmpty(s))) is { Length: > 0 } d ? d : null,
    };
}
