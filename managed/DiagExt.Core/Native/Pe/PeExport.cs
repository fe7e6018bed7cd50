namespace DiagExt.Core.Native.Pe;

/// <summary>One named export of a PE image: a function's name and its RVA (forwarders are not exports of code).</summary>
internal readonly record struct PeExport(string Name, uint Rva);
