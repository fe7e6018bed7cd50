using DiagExt.Core.Heap;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.WcfHang;

/// <summary>
/// The heap objects wcfhang wants: the duplex requests (sync and async) and the proxy operations (one per
/// operation of each contract, naming it). A process without WCF loaded is not analysed at all
/// (<see cref="WcfHangDetector.DoesNotApply"/>), so no heap pass starts for wcfhang alone.
/// </summary>
internal sealed class WcfTypes : IHeapInterest
{
    private const int MaxModules = 64 * 1024;

    public bool Wants(ClrType type) => type.Name is WcfNames.SyncRequest or WcfNames.AsyncRequest or WcfNames.ProxyOperation;

    /// <summary>The loaded WCF client assembly: System.ServiceModel (.NET Framework) or System.ServiceModel.Primitives.</summary>
    public static string? FindWcfModule(ClrRuntime runtime)
    {
        try
        {
            foreach (ClrModule module in runtime.EnumerateModules().Take(MaxModules))
            {
                string name = Path.GetFileNameWithoutExtension(module.Name ?? "");
                if (name is "System.ServiceModel" or "System.ServiceModel.Primitives")
                    return name;
            }
        }
        catch (Exception e) when (CorruptType.Is(e))
        {
            // A module list ClrMD cannot read: look at the heap rather than miss a hang.
            return "unknown (module list unreadable)";
        }
        return null;
    }
}
