using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Rendering;

/// <summary>
/// samples/HostileNames defines a type at run time whose name, static field and method carry a DML link
/// that would run ".shell", entities, quotes, newlines, escape sequences and bidi controls, and corrupts a
/// Dictionary keyed by it. Dumped at test time, the dictcycle report must show those names, inert.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class HostileNamesDumpTests
{
    private static string Dump => DumpMaker.DumpOfSample("HostileNames", "hostile-names.core");

    [Test]
    public void Dml_report_escapes_the_names_and_links_only_what_diagext_built()
    {
        Diagext.Result result = Diagext.Run("dictcycle", Dump, "--format", "dml");

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr + result.Stdout);
        Assert.That(DmlChecker.Problems(result.Stdout), Is.Empty, result.Stdout);
        Assert.That(DmlChecker.LinkCommands(result.Stdout), Is.Not.Empty.And.All.Not.Contains("shell"));
        // The held-by line names the hostile static field of the hostile type, escaped.
        Assert.That(result.Stdout, Does.Contain("held by: static Evil&lt;link cmd=&quot;.shell -ci"));
        // The runtime writes the type name with '&' and '[' backslash-escaped; every character survives, inert.
        Assert.That(result.Stdout, Does.Contain("\\&amp;amp;\\&amp;#39;&quot;'\\u000a\\u000dLINE2\\u001b\\[31mRED\\u202eRTL\\u2066\\u200fX"));
        Assert.That(result.Stdout, Does.Contain("Field&lt;b&gt;&lt;link cmd="));
    }

    [Test]
    public void Text_report_shows_the_names_without_raw_control_or_bidi_characters()
    {
        Diagext.Result result = Diagext.Run("dictcycle", Dump);

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr + result.Stdout);
        Assert.That(result.Stdout, Does.Contain("held by: static Evil<link cmd=\".shell -ci"));
        Assert.That(result.Stdout.Where(c => (char.IsControl(c) && c is not '\n' and not '\r') || c is '\u202e' or '\u2066' or '\u200f'), Is.Empty);
        // One report line per evidence line: the newline in the type name did not split the held-by line.
        Assert.That(result.Stdout.Split('\n').First(l => l.Contains("held by: static Evil")), Does.EndWith("\\u000aF"));
    }
}
