using System.Reflection.Metadata;
using DiagExt.Core.Il;
using DiagExt.Core.Native.Pe;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets;

/// <summary>
/// The images of the modules loaded in a target: read from the target's memory, or from the file on disk
/// when memory lacks it and the file's MVID matches the module's metadata in memory; and their metadata alone,
/// for what needs no method body (<see cref="MetadataFor"/>). Owns what it opens.
/// </summary>
internal sealed class LoadedModuleImages : IDisposable
{
    /// <summary>Largest module image read from a target.</summary>
    public const ulong MaxImageBytes = 1024UL * 1024 * 1024;

    public const int MaxModules = 20_000;

    private readonly Dictionary<ulong, AssemblyImage?> _images = [];
    private readonly Dictionary<ulong, MetadataImage?> _metadata = [];
    private readonly Target _target;

    public LoadedModuleImages(Target target) => _target = target;

    public List<string> Problems { get; } = [];

    /// <summary>How many module images are open (read whole): tests check what needs only metadata opens none.</summary>
    internal int ImagesOpened => _images.Values.Count(i => i is not null);

    public AssemblyImage? For(ClrModule module)
    {
        if (!_images.TryGetValue(module.Address, out AssemblyImage? image))
        {
            image = Open(module);
            _images[module.Address] = image;
        }
        return image;
    }

    /// <summary>
    /// A module's metadata: the open image's, else the blob in the target's memory (CoreLib's is 3 MB of a 16 MB image),
    /// else the image's (a dump without the blob, a file on disk). Null when none can be read.
    /// </summary>
    public MetadataReader? MetadataFor(ClrModule module)
    {
        if (_images.TryGetValue(module.Address, out AssemblyImage? open) && open is not null)
            return open.Metadata;
        return MemoryMetadata(module)?.Metadata ?? For(module)?.Metadata;
    }

    /// <summary>
    /// The module's metadata blob from the target's memory, read once and kept until disposal: both the metadata asked
    /// for and the MVID that vouches for a file on disk come from it.
    /// </summary>
    private MetadataImage? MemoryMetadata(ClrModule module)
    {
        if (!_metadata.TryGetValue(module.Address, out MetadataImage? metadata))
            _metadata[module.Address] = metadata = module.IsDynamic ? null : FromMemory(module);
        return metadata;
    }

    public void Dispose()
    {
        foreach (AssemblyImage? image in _images.Values)
            image?.Dispose();
        foreach (MetadataImage? metadata in _metadata.Values)
            metadata?.Dispose();
    }

    private AssemblyImage? Open(ClrModule module)
    {
        if (module.IsDynamic || module.ImageBase == 0)
            return null;
        string? onDisk = module.Name is { } path && File.Exists(path) ? path : null;
        if (FromTargetMemory(module, onDisk) is { } fromMemory)
            return fromMemory;
        if (onDisk is not null)
            return OpenMatchingFile(module, onDisk);
        Problems.Add($"{NameOf(module)}: image not in the dump and not on this machine");
        return null;
    }

    /// <summary>The module's image as the target holds it; null when it is not all there or is not an assembly.</summary>
    internal AssemblyImage? FromTargetMemory(ClrModule module, string? pathOnDisk = null)
    {
        if (module.Size is 0 or > MaxImageBytes)
            return null;
        byte[] bytes = new byte[module.Size];
        int read = _target.ReadMemory(module.ImageBase, bytes);
        bool mapped = module.Layout != ModuleLayout.Flat;
        if (read != bytes.Length && !(mapped && ReadSections(module, bytes, read)))
            return null;
        string name = NameOf(module);
        return TryFromMemory(bytes, name, mapped, pathOnDisk) ?? TryFromMemory(bytes, name, !mapped, pathOnDisk);
    }

    private static string NameOf(ClrModule module) => module.Name ?? module.AssemblyName ?? $"module {(Address)module.Address}";

    /// <summary>
    /// A loaded image has holes where no section is (Linux: CoreLib's header page, then its first section 64 KB in, and
    /// createdump keeps only what is mapped): the read of the whole range stops at the first. Reads each section the
    /// headers name at its RVA instead; true when every section is there (holes stay zero, as nothing reads them).
    /// </summary>
    private bool ReadSections(ClrModule module, byte[] bytes, int headerBytes)
    {
        if (PeHeaders.Parse(bytes.AsSpan(0, headerBytes)) is not { Sections.Count: > 0 } headers)
            return false;
        foreach (PeSection section in headers.Sections)
        {
            ulong end = (ulong)section.VirtualAddress + section.VirtualSize;
            if (end > (ulong)bytes.Length)
                return false;
            Span<byte> target = bytes.AsSpan((int)section.VirtualAddress, (int)section.VirtualSize);
            if (_target.ReadMemory(module.ImageBase + section.VirtualAddress, target) != target.Length)
                return false;
        }
        return true;
    }

    private static AssemblyImage? TryFromMemory(byte[] bytes, string name, bool mapped, string? onDisk)
    {
        try
        {
            AssemblyImage image = AssemblyImage.FromMemory(bytes, name, mapped, onDisk);
            _ = image.Metadata.MethodDefinitions.Count; // touch the tables: a wrong layout fails here
            return image;
        }
        catch (BadImageFormatException)
        {
            return null;
        }
    }

    /// <summary>The file on disk, only if it is the same build as the module (MVID from the metadata in memory).</summary>
    private AssemblyImage? OpenMatchingFile(ClrModule module, string path)
    {
        try
        {
            AssemblyImage image = AssemblyImage.Open(path);
            if (MemoryMvid(module) is { } mvid && mvid != image.Mvid)
            {
                Problems.Add($"{path}: differs from the module loaded in the target (MVID); not scanned");
                image.Dispose();
                return null;
            }
            return image;
        }
        catch (Exception e) when (e is BadImageFormatException or IOException or UnauthorizedAccessException)
        {
            Problems.Add($"{path}: unreadable: {e.Message.ReplaceLineEndings(" ")}");
            return null;
        }
    }

    private Guid? MemoryMvid(ClrModule module)
    {
        if (MemoryMetadata(module) is not { } metadata)
            return null;
        try
        {
            return metadata.Metadata.GetGuid(metadata.Metadata.GetModuleDefinition().Mvid);
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            return null;
        }
    }

    /// <summary>The module's metadata blob as the runtime sees it in the target's memory; null when not all there or malformed.</summary>
    private MetadataImage? FromMemory(ClrModule module)
    {
        if (module.MetadataAddress == 0 || module.MetadataLength is 0 or > MaxImageBytes)
            return null;
        byte[] bytes = new byte[module.MetadataLength];
        return _target.ReadMemory(module.MetadataAddress, bytes) == bytes.Length ? MetadataImage.TryRead(bytes) : null;
    }
}
