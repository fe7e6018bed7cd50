using System.Buffers.Binary;
using System.IO.Compression;
using DiagExt.Core.Errors;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Targets.Sources;

/// <summary>One member of a zip archive, with the format its first bytes show.</summary>
public sealed record ArchiveMember(string Name, long Length, DumpFormat Format);

/// <summary>
/// Reads dumps stored in .gz and .zip files as streams, without unpacking anything to disk: listing a zip,
/// sniffing what a member holds, and opening a member's (or a gzip file's) content.
/// </summary>
public static class DumpArchives
{
    private const int HeadBytes = 64;

    public static DumpContainer ContainerOf(DumpFormat format) => format switch
    {
        DumpFormat.Gzip => DumpContainer.Gzip,
        DumpFormat.Zip => DumpContainer.Zip,
        _ => DumpContainer.None,
    };

    /// <summary>Every file member of a zip (directories left out), each with the format of its first bytes.</summary>
    public static IReadOnlyList<ArchiveMember> ListZip(string path, Limits limits)
    {
        return Guard(path, () =>
        {
            using ZipArchive zip = ZipFile.OpenRead(path);
            if (zip.Entries.Count > limits.MaxArchiveEntries)
                throw new DiagExtException($"{path}: the zip has {zip.Entries.Count:N0} members, more than diagext's limit of {limits.MaxArchiveEntries:N0}");
            var members = new List<ArchiveMember>();
            foreach (ZipArchiveEntry entry in zip.Entries)
            {
                if (entry.FullName.EndsWith('/'))
                    continue;
                using Stream content = entry.Open();
                members.Add(new ArchiveMember(entry.FullName, entry.Length, DumpFormatProbe.Identify(ReadHead(content))));
            }
            return members;
        });
    }

    /// <summary>The format of what a gzip file holds.</summary>
    public static DumpFormat SniffGzip(string path) => Guard(path, () =>
    {
        using Stream content = new GZipStream(File.OpenRead(path), CompressionMode.Decompress);
        return DumpFormatProbe.Identify(ReadHead(content));
    });

    /// <summary>The dump's length once unpacked, when the container says (zip: exact; gzip: ISIZE, only below 4 GiB).</summary>
    public static long? UnpackedLength(DumpSource source) => Guard(source.Path, () =>
    {
        switch (source.Container)
        {
            case DumpContainer.None:
                return new FileInfo(source.Path).Length;
            case DumpContainer.Zip:
                using (ZipArchive zip = ZipFile.OpenRead(source.Path))
                    return FindEntry(zip, source).Length;
            default:
                using (FileStream file = File.OpenRead(source.Path))
                {
                    if (file.Length < 18 || file.Length >= uint.MaxValue)
                        return (long?)null;
                    Span<byte> trailer = stackalloc byte[4];
                    file.Seek(-4, SeekOrigin.End);
                    file.ReadExactly(trailer);
                    return BinaryPrimitives.ReadUInt32LittleEndian(trailer);
                }
        }
    });

    /// <summary>The dump's bytes as a forward-only stream; dispose it to close the archive too.</summary>
    public static Stream OpenContent(DumpSource source) => Guard<Stream>(source.Path, () =>
    {
        switch (source.Container)
        {
            case DumpContainer.None:
                return File.OpenRead(source.Path);
            case DumpContainer.Gzip:
                return new GZipStream(File.OpenRead(source.Path), CompressionMode.Decompress);
            default:
                ZipArchive zip = ZipFile.OpenRead(source.Path);
                try
                {
                    return new OwningStream(FindEntry(zip, source).Open(), zip);
                }
                catch
                {
                    zip.Dispose();
                    throw;
                }
        }
    });

    private static ZipArchiveEntry FindEntry(ZipArchive zip, DumpSource source) =>
        zip.GetEntry(source.Entry ?? "") ?? throw new DiagExtException($"{source.Path}: the zip has no member '{source.Entry}'");

    private static byte[] ReadHead(Stream content)
    {
        byte[] head = new byte[HeadBytes];
        int read = content.ReadAtLeast(head, head.Length, throwOnEndOfStream: false);
        return head[..read];
    }

    /// <summary>Turns what a broken archive throws into one line naming the file.</summary>
    private static T Guard<T>(string path, Func<T> read)
    {
        try
        {
            return read();
        }
        catch (Exception e) when (e is InvalidDataException or IOException or UnauthorizedAccessException or NotSupportedException)
        {
            throw new DiagExtException($"{path}: a compressed archive that cannot be read: {e.Message.ReplaceLineEndings(" ")}", e);
        }
    }

    /// <summary>A member's stream that also closes its archive.</summary>
    private sealed class OwningStream(Stream inner, IDisposable owner) : Stream
    {
        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position
        {
            get => throw new NotSupportedException();
            set => throw new NotSupportedException();
        }

        public override int Read(byte[] buffer, int offset, int count) => inner.Read(buffer, offset, count);

        public override int Read(Span<byte> buffer) => inner.Read(buffer);

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                inner.Dispose();
                owner.Dispose();
            }
            base.Dispose(disposing);
        }
    }
}
