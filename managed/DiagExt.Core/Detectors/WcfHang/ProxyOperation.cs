using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.WcfHang;

/// <summary>
/// A ProxyOperationRuntime: one operation of a client contract, with its name and Action. ServiceChannel.Call
/// takes it as an argument, so the stack of a thread inside a call holds it (on .NET Framework too, where the
/// transparent proxy leaves no frame naming the operation).
/// </summary>
internal sealed record ProxyOperation(ulong Address, string? Name, string? Action)
{
    public static ProxyOperation Read(ClrObject operation, int maxString) =>
        new(operation.Address, WcfFields.String(operation, WcfNames.OperationName, maxString), WcfFields.String(operation, WcfNames.OperationAction, maxString));
}
