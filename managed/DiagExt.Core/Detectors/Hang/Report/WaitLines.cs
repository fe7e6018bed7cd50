using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// How a thread's wait is worded outside a cycle (knot members, bystanders, chains): on a lock ("waits for AccountLock
/// 0x.. held by 0x.."), or on a task, a thread or an event (<see cref="ObjectWaitLines"/>): one wording for the evidence
/// line and the thread's role alike.
/// </summary>
internal static class WaitLines
{
    /// <summary>
    /// Appends the wait of <paramref name="os"/> to <paramref name="line"/>; returns the same words for its role, and the
    /// lock when it waits for one. Null when the graph has no wait of it to word.
    /// </summary>
    /// <param name="heldBy">Name the lock's holders ("held by 0x..").</param>
    public static (string Role, LockState? Lock)? Append(MarkupBuilder line, WaitGraph graph, LockNames names, uint os, bool heldBy)
    {
        if (graph.LockWaitedBy(os) is { } l)
        {
            string holders = heldBy ? $" held by {string.Join(", ", graph.Blockers(os).Select(b => $"0x{b:x}"))}" : "";
            line.Text($"waits for {names.Name(l)} ").Lock(l).Text(holders);
            return ($"waits for {names.Name(l)} {(Address)l.Address}{holders}", l);
        }
        if (graph.ObjectWaitOf(os) is { } o)
        {
            ObjectWaitLines.Append(line, o);
            return (ObjectWaitLines.Role(o), null);
        }
        return null;
    }
}
