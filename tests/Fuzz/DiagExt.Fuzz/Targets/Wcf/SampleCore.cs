using DiagExt.Core;
using DiagExt.Core.Targets;
using DiagExt.Fuzz.Engine;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Fuzz.Targets.Wcf;

/// <summary>
/// A core the test suite makes, opened once per process: its reader serves every execution, and the objects of the
/// types a target names are the seed's chunks. Field layouts come from this unmodified core, so mutations can aim at
/// each reference and count the reader trusts. The wcf target's core is the hung WCF client (samples/WcfHang, apm
/// mode) with its WCF objects (binder, handler, requests, channel, operations, message ids); hang's are samples/Hangs'.
/// </summary>
internal sealed class SampleCore
{
    private const int MaxObjects = HeapChunkCodec.MaxChunks;

    private static readonly string[] WcfTypes =
    [
        "System.ServiceModel.Dispatcher.DuplexChannelBinder",
        "System.ServiceModel.Dispatcher.ChannelHandler",
        "System.ServiceModel.Dispatcher.ProxyOperationRuntime",
        "System.ServiceModel.Channels.ServiceChannel",
        "System.ServiceModel.Channels.ClientFramingDuplexSessionChannel",
        "System.ServiceModel.Channels.RequestReplyCorrelator+Key",
        "System.ServiceModel.EndpointAddress",
        "System.Xml.UniqueId",
    ];

    private static readonly object Gate = new();
    private static readonly Dictionary<string, SampleCore> Opened = [];

    private readonly Dictionary<ulong, IReadOnlyList<(int Offset, int Size, FieldKind Kind)>> _layouts = [];

    private SampleCore(string path, string[] typePrefixes)
    {
        Path = path;
        Base = DataTarget.LoadDump(path);
        (ClrRuntime? runtime, _) = RuntimeLoader.Load(Base, new TargetOptions(), CancellationToken.None);
        if (runtime is null)
            return;
        var objects = new List<(ulong, byte[])>();
        foreach (ClrObject obj in runtime.Heap.EnumerateObjects())
        {
            if (obj.Type?.Name is not { } name || !typePrefixes.Any(p => name.StartsWith(p, StringComparison.Ordinal)) || name.EndsWith(']'))
                continue;
            byte[] bytes = new byte[Math.Min(obj.Size, (ulong)HeapChunkCodec.MaxChunkBytes)];
            if (Base.DataReader.Read(obj.Address, bytes) != bytes.Length)
                continue;
            objects.Add((obj.Address, bytes));
            _layouts[obj.Address] = Layout(obj);
            if (objects.Count == MaxObjects)
                break;
        }
        Objects = objects;
    }

    /// <summary>Where the suite writes its sample cores.</summary>
    public static string CorePath(string name) => System.IO.Path.Combine(FuzzPaths.Root, "artifacts", "test-work", "dumps", name);

    /// <summary>The hung WCF client's core, or null while the suite has not made it on this machine (asked again next time).</summary>
    public static SampleCore? Shared => Get("wcfhang-apm.core", WcfTypes);

    /// <summary>The suite's core <paramref name="name"/> with its objects of those types, or null while it is not made.</summary>
    public static SampleCore? Get(string name, string[] typePrefixes)
    {
        string path = CorePath(name);
        lock (Gate)
        {
            if (Opened.TryGetValue(path, out SampleCore? core))
                return core;
            return File.Exists(path) ? Opened[path] = new SampleCore(path, typePrefixes) : null;
        }
    }

    public string Path { get; }

    public DataTarget Base { get; }

    /// <summary>The WCF objects of the hang, as the core holds them.</summary>
    public IReadOnlyList<(ulong Address, byte[] Bytes)> Objects { get; } = [];

    /// <summary>
    /// This core with <paramref name="chunks"/> laid over its memory, opened as diagext opens a dump (one reader thread):
    /// the runtime is read through the overlay, so every object the chunks replace is what the detectors see.
    /// </summary>
    public Target Overlay(IReadOnlyList<HeapChunk> chunks, string name)
    {
        var dataTarget = new DataTarget(new OverlayReader(Base.DataReader, chunks), new DataTargetOptions());
        (ClrRuntime? runtime, RuntimeStatus status) = RuntimeLoader.Load(dataTarget, new TargetOptions(), CancellationToken.None);
        return new Target(name, TargetKind.ElfCore, dataTarget, runtime, status, ThreadTimes.Unavailable("not read by the fuzzer"), null, new TargetOptions { Threads = 1 });
    }

    /// <summary>The MethodTable pointer and every instance field of the object at <paramref name="address"/> in the unmodified core.</summary>
    public IReadOnlyList<(int Offset, int Size, FieldKind Kind)> FieldsAt(ulong address) => _layouts.TryGetValue(address, out var layout) ? layout : [];

    private static IReadOnlyList<(int, int, FieldKind)> Layout(ClrObject obj)
    {
        var fields = new List<(int, int, FieldKind)> { (0, 8, FieldKind.Pointer) };
        foreach (ClrInstanceField field in obj.Type!.Fields)
        {
            int offset = (int)(field.GetAddress(obj.Address) - obj.Address);
            if (field.IsObjectReference)
                fields.Add((offset, 8, FieldKind.Pointer));
            else if (field.ElementType is ClrElementType.Int32 or ClrElementType.UInt32)
                fields.Add((offset, 4, FieldKind.Count));
            else if (field.ElementType is ClrElementType.Int64 or ClrElementType.UInt64 or ClrElementType.Struct)
                fields.Add((offset, 8, FieldKind.Tag));
            else if (field.ElementType == ClrElementType.Boolean)
                fields.Add((offset, 1, FieldKind.Tag));
        }
        return fields;
    }
}
