using System.Text;

namespace DiagExt.Cli;

/// <summary>
/// diagext writes UTF-8 (no BOM) whenever its output goes to a pipe or file, on every OS: the WinDbg
/// extension and scripts read it as UTF-8, while a Windows console's code page depends on the machine.
/// A console keeps the writer .NET gave it.
/// </summary>
internal static class PipeAwareWriter
{
    public static TextWriter For(TextWriter console, bool redirected, Func<Stream> open) =>
        redirected ? new StreamWriter(open(), new UTF8Encoding(false)) { AutoFlush = true } : console;
}
