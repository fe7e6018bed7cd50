using DiagExt.Core.Targets;
using DiagExt.Fuzz.Engine;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Fuzz.Targets.Wcf;

/// <summary>
/// The core of the hung WCF client the test suite makes (samples/WcfHang, apm mode), opened once per process: its
/// reader serves every execution, and its WCF objects (binder, handler, requests, channel, operations, message ids)
/// are the seed's chunks. Field layouts come from this unmodified core, so mutations can aim at each reference and
/// count the reader trusts.
/// </summary>
internal sealed class WcfCore
{
    private const int MaxObjects = HeapChunkCodec.MaxChunks;

    private static readonly string[] TypePrefixes =
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
    private static WcfCore? _shared;

    private readonly Dictionary<ulong, IReadOnlyList<(int Offset, int Size, FieldKind Kind)>> _layouts = [];

    private WcfCore(string path)
    {
        Path = path;
        Base = DataTarget.LoadDump(path);
        (ClrRuntime? runtime, _) = RuntimeLoader.Load(Base, new TargetOptions(), CancellationToken.None);
        if (runtime is null)
            return;
        var objects = new List<(ulong, byte[])>();
        foreach (ClrObject obj in runtime.Heap.EnumerateObjects())
        {
            if (obj.Type?.Name is not { } name || !TypePrefixes.Any(p => name.StartsWith(p, StringComparison.Ordinal)) || name.EndsWith(']'))
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

    /// <summary>Where the suite's WcfHang fixture writes the hung client's core.</summary>
    public static string DefaultPath => System.IO.Path.Combine(FuzzPaths.Root, "artifacts", "test-work", "dumps", "wcfhang-apm.core");

    /// <summary>The core, or null while the suite has not made it on this machine (asked again next time).</summary>
    public static WcfCore? Shared
    {
        get
        {
            lock (Gate)
                return _shared ??= File.Exists(DefaultPath) ? new WcfCore(DefaultPath) : null;
        }
    }

    public string Path { get; }

    public DataTarget Base { get; }

    /// <summary>The WCF objects of the hang, as the core holds them.</summary>
    public IReadOnlyList<(ulong Address, byte[] Bytes)> Objects { get; } = [];

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
