using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;

namespace DiagExt.Core.Il;

/// <summary>Maps an IL offset of a method to its source file and line through a portable PDB.</summary>
public sealed class SourceLines : IDisposable
{
    private readonly MetadataReaderProvider _provider;
    private readonly MetadataReader _pdb;

    private SourceLines(MetadataReaderProvider provider)
    {
        _provider = provider;
        _pdb = provider.GetMetadataReader();
    }

    /// <summary>The PDB beside <paramref name="assemblyPath"/> or embedded in the image; null when there is none or it is not portable.</summary>
    public static SourceLines? TryOpen(PEReader pe, string? assemblyPath)
    {
        try
        {
            if (assemblyPath is null)
                return Embedded(pe);
            string? directory = Path.GetDirectoryName(Path.GetFullPath(assemblyPath));
            if (pe.TryOpenAssociatedPortablePdb(assemblyPath, path => OpenBeside(path, directory), out MetadataReaderProvider? provider, out _) && provider is not null)
                return new SourceLines(provider);
        }
        catch (Exception e) when (MalformedMetadata.Is(e) || e is IOException or UnauthorizedAccessException)
        {
            // A missing, mismatched or Windows-format PDB just means no line numbers.
        }
        return null;
    }

    /// <summary>The source location of the sequence point covering <paramref name="ilOffset"/>, or null.</summary>
    public (string File, int Line)? Find(MethodDefinitionHandle method, int ilOffset)
    {
        try
        {
            MethodDebugInformation info = _pdb.GetMethodDebugInformation(method.ToDebugInformationHandle());
            SequencePoint? best = null;
            int visited = 0;
            foreach (SequencePoint point in info.GetSequencePoints())
            {
                if (++visited > 1_000_000)
                    break;
                if (point.IsHidden || point.Offset > ilOffset)
                    continue;
                if (best is null || point.Offset >= best.Value.Offset)
                    best = point;
            }
            if (best is not { } found)
                return null;
            string file = _pdb.GetString(_pdb.GetDocument(found.Document).Name);
            return (file, found.StartLine);
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            return null;
        }
    }

    public void Dispose() => _provider.Dispose();

    /// <summary>An image with no file (inside a package, in a dump) can still carry its PDB embedded.</summary>
    private static SourceLines? Embedded(PEReader pe)
    {
        foreach (DebugDirectoryEntry entry in pe.ReadDebugDirectory())
            if (entry.Type == DebugDirectoryEntryType.EmbeddedPortablePdb)
                return new SourceLines(pe.ReadEmbeddedPortablePdbDebugDirectoryData(entry));
        return null;
    }

    /// <summary>Only a PDB file in the assembly's own folder is opened, never a path the image dictates.</summary>
    private static Stream? OpenBeside(string pdbPath, string? directory)
    {
        if (directory is null)
            return null;
        string candidate = Path.Combine(directory, Path.GetFileName(pdbPath.Replace('\\', '/')));
        return File.Exists(candidate) ? File.OpenRead(candidate) : null;
    }
}
