using DiagExt.Core.Native.Stacks;
using DiagExt.Core.Native.Windows;

namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>A thread that waits for the loader lock.</summary>
/// <param name="ApiFrame">The loader API it called (LoadLibraryW, GetProcAddress...), null when its stack cannot be named.</param>
/// <param name="CallerFrame">The innermost frame of its own code below that API: who called it.</param>
/// <param name="Proof">Why it counts as waiting for the loader lock, one fact per entry.</param>
internal sealed record Victim(
    WindowsThread Thread,
    IReadOnlyList<NativeFrame> Frames,
    LoaderActivity? Activity,
    NativeFrame? ApiFrame,
    NativeFrame? CallerFrame,
    VictimStyle Style,
    IReadOnlyList<string> Proof)
{
    /// <summary>"LoadLibraryW", or "loader code" when the stack does not name it.</summary>
    public string ApiName => ApiFrame?.Symbol.Function ?? "loader code";
}
