using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>How a wait on a task, a thread or a ManualResetEventSlim is worded in evidence and thread roles.</summary>
internal static class ObjectWaitLines
{
    /// <summary>"waits for Task 0x.. (FetchAsync (suspended at await 0)), Task&lt;String&gt; 0x.. is a promise ...", with the waited object and the blocking thread linked.</summary>
    public static MarkupBuilder Append(MarkupBuilder line, ObjectWait wait)
    {
        line.Text($"waits for {wait.WaitedName} ").Object(wait.Waited);
        if (wait.Steps.Count > 0)
            line.Text($" ({string.Join(" -> ", wait.Steps)})");
        line.Text($", {wait.EndText}");
        if (wait.Blocker is uint blocker)
            line.Text(" [").Thread(blocker).Text("]");
        return line;
    }

    public static string Role(ObjectWait? wait) => wait is null ? "waits" : $"waits for {wait.Describe()}";
}
