using System.Text.RegularExpressions;
using DiagExt.Core.Errors;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.WinDbg;

/// <summary>
/// diagext's exit codes are defined once, in ExitCode.cs; the extension reads them through native/src/ExitCodes.h.
/// The two must name the same codes with the same numbers, or the extension misreads how diagext ended.
/// </summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public partial class ExitCodeHeaderTests
{
    [GeneratedRegex(@"^\s*(?<name>\w+)\s*=\s*(?<value>\d+)\s*,", RegexOptions.Multiline)]
    private static partial Regex Enumerator();

    [Test]
    public void The_native_header_mirrors_the_managed_exit_codes()
    {
        string header = File.ReadAllText(Path.Combine(Repo.Root, "native", "src", "ExitCodes.h"));
        string body = header[header.IndexOf("enum class DiagextExit", StringComparison.Ordinal)..];
        body = body[..body.IndexOf("};", StringComparison.Ordinal)];
        var native = Enumerator().Matches(body).ToDictionary(m => m.Groups["name"].Value, m => int.Parse(m.Groups["value"].Value));
        var managed = Enum.GetValues<ExitCode>().ToDictionary(c => c.ToString(), c => (int)c);
        Assert.That(native, Is.EquivalentTo(managed));
    }
}
