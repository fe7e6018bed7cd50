using System.Collections.Immutable;
using System.Reflection.Metadata;
using DiagExt.Core.Il;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Targets;

/// <summary>
/// The images of the modules loaded in a target: read from the target's memory, or from the file on disk
/// when memory lacks it and the file's MVID matches the module's metadata in memory. Owns what it opens.
/// </summary>
internal sealed class LoadedModuleImages : IDisposable
{
    /// <summary>Largest module image read from a target.</summary>
    public const ulong MaxImageBytes = 1024UL * 1024 * 1024;

    public const int MaxModules = 20_000;

    private readonly Dictionary<ulong, AssemblyImage?> _images = [];
    private readonly Target _target;

    public LoadedModuleImages(Target target) => _target = target;

    public List<string> Problems { get; } = [];

    public AssemblyImage? For(ClrModule module)
    {
        if (!_images.TryGetValue(module.Address, out AssemblyImage? image))
        {
            image = Open(module);
            _images[module.Address] = image;
        }
        return image;
    }

    public void Dispose()
    {
        foreach (AssemblyImage? image in _images.Values)
            image?.Dispose();
    }

    private AssemblyImage? Open(ClrModule module)
    {
        if (module.IsDynamic || module.ImageBase == 0)
            return null;
        string name = module.Name ?? module.AssemblyName ?? $"module 0x{module.Address:x}";
        string? onDisk = module.Name is { } path && File.Exists(path) ? path : null;
        if (module.Size is > 0 and <= MaxImageBytes)
        {
            byte[] bytes = new byte[module.Size];
            if (_target.ReadMemory(module.ImageBase, bytes) == bytes.Length)
            {
                bool mapped = module.Layout != ModuleLayout.Flat;
                if ((TryFromMemory(bytes, name, mapped, onDisk) ?? TryFromMemory(bytes, name, !mapped, onDisk)) is { } fromMemory)
                    return fromMemory;
            }
        }
        if (onDisk is not null)
            return OpenMatchingFile(module, onDisk);
        Problems.Add($"{name}: image not in the dump and not on this machine");
        return null;
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
        if (module.MetadataAddress == 0 || module.MetadataLength is 0 or > MaxImageBytes)
            return null;
        byte[] bytes = new byte[module.MetadataLength];
        if (_target.ReadMemory(module.MetadataAddress, bytes) != bytes.Length)
            return null;
        try
        {
            using var provider = MetadataReaderProvider.FromMetadataImage(ImmutableArray.Create(bytes));
            MetadataReader reader = provider.GetMetadataReader();
            return reader.GetGuid(reader.GetModuleDefinition().Mvid);
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            return null;
        }
    }
}
