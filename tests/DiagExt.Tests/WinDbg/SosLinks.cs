using System.Text.RegularExpressions;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.WinDbg;

/// <summary>
/// The links a DiagExt report prints, run as a WinDbg click runs them (their command text) in an engine session with
/// Microsoft's SOS loaded, and what counts as SOS answering: a thread link shows that OS thread's managed stack, an
/// object link the object's type. One place for the link shapes, so every detector's test checks them alike.
/// </summary>
internal static partial class SosLinks
{
    /// <summary>
    /// What SOS prints once, at its first command, in dbgeng under Wine (the output after it is right): its managed
    /// hosting fails (the tool package has no SOS.Extensions.dll), and a read of the dump's file mapping faults. Not DiagExt's.
    /// Which hosting line comes depends on the machine: "Failed to find runtime directory", or (seen on this machine in
    /// a session where SOS was loaded alone) "Failed to load runtime module /usr/share/dotnet\...\coreclr.dll".
    /// </summary>
    public static bool IsWineNoise(string error) =>
        error.StartsWith("SOS_HOSTING: ", StringComparison.Ordinal) || error == "Exception 0xc0000005 while accessing file mapping";

    /// <summary>
    /// A command's output as a reader sees it: SOS writes DML when the engine prefers it (its own &lt;exec&gt; links
    /// around addresses), so tags are taken out and entities decoded, line by line.
    /// </summary>
    public static string Text(EngineHost.Command command) =>
        string.Join('\n', command.Lines.Select(l => System.Net.WebUtility.HtmlDecode(Tag().Replace(l.Text, ""))));

    /// <summary>Opens the dump with SOS loaded and runs each link, as a click would.</summary>
    public static EngineHost.Session Run(string dump, IReadOnlyList<string> links) =>
        EngineHost.OpenDump(dump, [$".load {WinePrefix.WindowsPath(SosPackage.Dll)}", .. links]);

    /// <summary>
    /// Each link got a real answer: no error but SOS's own lines under Wine; a thread link shows that OS thread's stack,
    /// an object link SOS's object header. What the answer must also hold is the caller's (<paramref name="thread"/>:
    /// the OS thread id and SOS's text; <paramref name="obj"/>: the address and SOS's text).
    /// </summary>
    public static void AssertAnswered(EngineHost.Session session, IEnumerable<string> links, Action<ulong, string> thread, Action<ulong, string> obj)
    {
        foreach (string link in links)
        {
            EngineHost.Command answer = session[link];
            string text = Text(answer);
            Assert.That(answer.Errors.Where(e => !IsWineNoise(e)), Is.Empty, answer.ToString());
            if (ThreadLink().Match(link) is { Success: true } threadLink)
            {
                ulong tid = Convert.ToUInt64(threadLink.Groups[1].Value, 16);
                Assert.That(text, Does.Contain($"OS Thread Id: 0x{tid:x} "), answer.ToString());
                thread(tid, text);
            }
            else if (ObjectLink().Match(link) is { Success: true } objectLink)
            {
                // SOS's object header; its Name line is left out when the type's name is itself markup (HostileNames).
                Assert.That(text, Does.Match(@"(?m)^MethodTable:\s+[0-9a-f]+"), answer.ToString());
                obj(Convert.ToUInt64(objectLink.Groups[1].Value, 16), text);
            }
            else
                Assert.Fail($"a link of a shape this test does not know: {link}");
        }
    }

    /// <summary>The type SOS's !DumpObj names ("Name:" line), or null when it gives none.</summary>
    public static string? TypeName(string dumpObjText) => NameLine().Match(dumpObjText) is { Success: true } m ? m.Groups[1].Value : null;

    [GeneratedRegex(@"^~~\[0x([0-9a-f]+)\]s; !clrstack$")]
    private static partial Regex ThreadLink();

    [GeneratedRegex(@"^!DumpObj /d 0x([0-9a-f]+)$")]
    private static partial Regex ObjectLink();

    [GeneratedRegex("<[^>]*>")]
    private static partial Regex Tag();

    [GeneratedRegex(@"(?m)^Name:\s+(\S+)")]
    private static partial Regex NameLine();
}
