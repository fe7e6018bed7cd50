using System.Collections.Immutable;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;

namespace DiagExt.Core.Il;

/// <summary>
/// A managed assembly's PE image and metadata, from a file or from a dump's memory. Construction checks
/// that the image has CLI metadata; method bodies are read on demand and may still be malformed.
/// </summary>
public sealed class AssemblyImage : IDisposable
{
    private readonly PEReader _pe;
    private readonly string? _path;
    private SourceLines? _lines;
    private bool _linesLoaded;

    private AssemblyImage(PEReader pe, string displayName, string? path)
    {
        _pe = pe;
        _path = path;
        DisplayName = displayName;
        if (!pe.HasMetadata)
            throw new BadImageFormatException("no CLI metadata (a native image)");
        Metadata = pe.GetMetadataReader();
        Name = Metadata.IsAssembly ? Metadata.GetString(Metadata.GetAssemblyDefinition().Name) : Metadata.GetString(Metadata.GetModuleDefinition().Name);
        Mvid = Metadata.GetGuid(Metadata.GetModuleDefinition().Mvid);
    }

    /// <summary>The file path or the module name in the dump.</summary>
    public string DisplayName { get; }

    /// <summary>The assembly's simple name ("Microsoft.Practices.ObjectBuilder").</summary>
    public string Name { get; }

    public Guid Mvid { get; }

    public MetadataReader Metadata { get; }

    /// <summary>Opens an assembly file; a file that is not a managed assembly is a <see cref="BadImageFormatException"/>.</summary>
    public static AssemblyImage Open(string path)
    {
        byte[] bytes = File.ReadAllBytes(path);
        return Create(() => new PEReader(ImmutableArray.Create(bytes)), path, path);
    }

    /// <summary>An image read from a process's memory: mapped (loaded) layout unless it was mapped flat.</summary>
    public static AssemblyImage FromMemory(byte[] bytes, string displayName, bool loadedLayout, string? pathOnDisk)
    {
        var options = PEStreamOptions.PrefetchEntireImage | (loadedLayout ? PEStreamOptions.IsLoadedImage : PEStreamOptions.Default);
        return Create(() => new PEReader(new MemoryStream(bytes, writable: false), options), displayName, pathOnDisk);
    }

    /// <summary>Whatever System.Reflection.Metadata throws for a damaged image becomes one exception type for callers.</summary>
    private static AssemblyImage Create(Func<PEReader> open, string displayName, string? path)
    {
        PEReader? pe = null;
        try
        {
            pe = open();
            return new AssemblyImage(pe, displayName, path);
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            pe?.Dispose();
            throw e as BadImageFormatException ?? new BadImageFormatException($"malformed image: {e.Message}", e);
        }
    }

    /// <summary>The IL body of a method, or null for abstract/extern methods and bodies outside the image.</summary>
    public MethodBodyBlock? Body(MethodDefinitionHandle handle)
    {
        int rva = Metadata.GetMethodDefinition(handle).RelativeVirtualAddress;
        return rva == 0 ? null : _pe.GetMethodBody(rva);
    }

    /// <summary>Source lines from the portable PDB beside the file (or embedded), when there is one.</summary>
    public SourceLines? Lines
    {
        get
        {
            if (!_linesLoaded)
            {
                _linesLoaded = true;
                _lines = SourceLines.TryOpen(_pe, _path);
            }
            return _lines;
        }
    }

    public void Dispose()
    {
        _lines?.Dispose();
        _pe.Dispose();
    }
}
