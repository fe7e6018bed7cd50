namespace DiagExt.Core.Targets.Symbols;

/// <summary>
/// One place a symbol-store file can come from: a folder in the store's layout ("KEY" under it), and for a
/// server the cache folder a download lands in. Only a store with a <see cref="Server"/> ever touches the network.
/// </summary>
public sealed record SymbolStore(string? Folder, Uri? Server)
{
    public bool IsRemote => Server is not null;

    public override string ToString() => Server is null ? Folder ?? "" : Folder is null ? $"srv*{Server}" : $"srv*{Folder}*{Server}";
}
