using System.Reflection.Metadata;
using System.Runtime.InteropServices;

namespace DiagExt.Core.Il;

/// <summary>
/// A module's metadata without the rest of its image: the blob the runtime points at, read from a target's memory.
/// It names types, methods and assembly references; for method bodies open the <see cref="AssemblyImage"/>.
/// </summary>
public sealed class MetadataImage : IDisposable
{
    private readonly MetadataReaderProvider _provider;

    private MetadataImage(MetadataReaderProvider provider, MetadataReader metadata)
    {
        _provider = provider;
        Metadata = metadata;
    }

    public MetadataReader Metadata { get; }

    /// <summary>The metadata in <paramref name="bytes"/> (read in place: the caller must not change them), or null when it is malformed.</summary>
    public static MetadataImage? TryRead(byte[] bytes)
    {
        var provider = MetadataReaderProvider.FromMetadataImage(ImmutableCollectionsMarshal.AsImmutableArray(bytes));
        try
        {
            MetadataReader reader = provider.GetMetadataReader();
            _ = reader.GetModuleDefinition(); // the module row: a blob that is not metadata fails here
            return new MetadataImage(provider, reader);
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            provider.Dispose();
            return null;
        }
    }

    public void Dispose() => _provider.Dispose();
}
