using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using System.Runtime.InteropServices;

namespace DiagExt.Core.Il;

/// <summary>
/// A managed assembly's PE image and metadata, from a file or from a dump's memory. Construction checks
/// that the image has CLI metadata; method bodies are read on demand and may still be malformed.
/// </summary>
public sealed class AssemblyImage : IDisposable
{
    private readonly PEReader _pe;
    private readonly string? _path;
    private GCHandle _pin; // a loaded-layout image, read in place through a pointer; freed with the reader
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
        Name = NameOf(Metadata);
        Mvid = Metadata.GetGuid(Metadata.GetModuleDefinition().Mvid);
    }

    /// <summary>The assembly's simple name, or the module's for a module without an assembly row.</summary>
    public static string NameOf(MetadataReader md) =>
        md.IsAssembly ? md.GetString(md.GetAssemblyDefinition().Name) : md.GetString(md.GetModuleDefinition().Name);

    /// <summary>The file path or the module name in the dump.</summary>
    public string DisplayName { get; }

    /// <summary>The assembly's simple name ("Microsoft.Practices.ObjectBuilder").</summary>
    public string Name { get; }

    public Guid Mvid { get; }

    public MetadataReader Metadata { get; }

    /// <summary>Opens an assembly file; a file that is not a managed assembly is a <see cref="BadImageFormatException"/>.</summary>
    public static AssemblyImage Open(string path) => FromMemory(File.ReadAllBytes(path), path, loadedLayout: false, path);

    /// <summary>
    /// An image read from a process's memory or a file: mapped (loaded) layout unless it was mapped flat. The reader
    /// works on <paramref name="bytes"/> in place (the caller must not change them): through a stream it would copy
    /// the whole image to native memory, a second copy of every module (CoreLib's 15 MB twice, in a 1 M-object dump's
    /// peak RSS).
    /// </summary>
    public static AssemblyImage FromMemory(byte[] bytes, string displayName, bool loadedLayout, string? pathOnDisk)
    {
        if (!loadedLayout)
            return Create(new PEReader(ImmutableCollectionsMarshal.AsImmutableArray(bytes)), default, displayName, pathOnDisk);
        // No PEReader over an array takes the loaded layout: a pointer to the pinned array does.
        GCHandle pin = GCHandle.Alloc(bytes, GCHandleType.Pinned);
        try
        {
            return Create(InPlace(pin, bytes.Length), pin, displayName, pathOnDisk);
        }
        catch
        {
            pin.Free();
            throw;
        }
    }

    private static unsafe PEReader InPlace(GCHandle pin, int length) =>
        new((byte*)pin.AddrOfPinnedObject(), length, isLoadedImage: true);

    /// <summary>Whatever System.Reflection.Metadata throws for a damaged image becomes one exception type for callers.</summary>
    private static AssemblyImage Create(PEReader pe, GCHandle pin, string displayName, string? path)
    {
        try
        {
            return new AssemblyImage(pe, displayName, path) { _pin = pin };
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            pe.Dispose();
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
        if (_pin.IsAllocated)
            _pin.Free();
    }
}
