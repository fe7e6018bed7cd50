using System.Text.RegularExpressions;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.WinDbg;

/// <summary>
/// The extension as a WinDbg user runs it: Microsoft's dbgeng.dll (NuGet Microsoft.Debugging.Platform.DbgEng)
/// under Wine opens a real Windows dump, ".load"s the packaged DiagExt.dll, and its commands start the
/// real win-x64 diagext under Wine. What the engine prints is what the user would read.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class EngineOnWindowsDumpsTests
{
    private EngineHost.Session _x64 = null!;

    private static string Load(string arch) => $".load {WinePrefix.WindowsPath(WinDbgPackage.Extension(arch))}";

    [OneTimeSetUp]
    public void OpenTheWindows11Dump() =>
        _x64 = EngineHost.OpenDump(Repo.SharedDump("win11-x64-crashpad-tiny-exe.dmp"),
            [Load("x64"), "!dictcycle", "!diagext", "!dictcycle --bogus", "!help", "!dictcycle --json", "!wcfhang",
             "!diagext dictcycle", "!diagext help", "!diagext nosuch --json", "!analyze"]);

    [Test]
    public void The_engine_opens_the_dump_and_loads_the_extension_silently()
    {
        Assert.That(_x64.Opened, Is.True, _x64.Raw);
        Assert.That(_x64[Load("x64")].HResult, Is.Zero);
        Assert.That(_x64[Load("x64")].NonEmpty, Is.Empty);
    }

    [Test]
    public void Dictcycle_on_a_dump_without_dotnet_gives_diagexts_one_line()
    {
        EngineHost.Command result = _x64["!dictcycle"];
        Assert.That(result.NonEmpty.Select(l => l.ToString()), Is.EqualTo(new[]
        {
            $"E|diagext: {WinePrefix.WindowsPath(Repo.SharedDump("win11-x64-crashpad-tiny-exe.dmp"))}: no .NET runtime found in the target (no detector could run: dictcycle skipped)",
        }), result.ToString());
    }

    [Test]
    public void Diagext_alone_on_a_dump_without_dotnet_runs_loaderlock_and_skips_the_rest()
    {
        EngineHost.Command result = _x64["!diagext"];
        string[] dml = result.NonEmpty.Where(l => l.Kind == 'D').Select(l => l.Text).ToArray();
        Assert.That(result.Errors, Is.Empty, result.ToString());
        Assert.That(dml, Has.Member("dictcycle: skipped: no .NET runtime found in the target"));
        Assert.That(dml, Has.Member("loaderlock: note: loader lock at 0x7ff9112b3360 is free (LockCount -1 (free), RecursionCount 0, OwningThread 0x0)"));
        Assert.That(dml.Last(), Does.StartWith("no hazard found (loaderlock: 0) in "));
        Assert.That(DmlChecker.Problems(string.Join('\n', dml)), Is.Empty);
    }

    [Test]
    public void A_bad_option_is_diagexts_usage_line() =>
        Assert.That(_x64["!dictcycle --bogus"].NonEmpty.Select(l => l.ToString()),
            Is.EqualTo(new[] { "E|diagext: unknown option '--bogus' (see 'diagext help')" }));

    [Test]
    public void Help_is_shown_with_every_command()
    {
        EngineHost.Command help = _x64["!help"];
        // The extension's two lines, then diagext's help as DML: escaped, so the placeholders in angle brackets survive.
        Assert.That(help.NonEmpty.Take(2).All(l => l.Kind == 'T') && help.NonEmpty.Skip(2).All(l => l.Kind == 'D'), help.ToString());
        string dml = string.Join('\n', help.NonEmpty.Skip(2).Select(l => l.Text));
        Assert.That(DmlChecker.Problems(dml), Is.Empty);
        Assert.That(DmlChecker.LinkCommands(dml), Is.Empty);
        string text = dml.Replace("&lt;", "<").Replace("&gt;", ">").Replace("&quot;", "\"").Replace("&amp;", "&");
        Assert.That(text, Does.Contain("usage: diagext <command> <dump> | --pid N"));
        foreach (string command in global::DiagExt.Cli.Commands.CommandCatalog.All.Select(c => c.Name))
            Assert.That(text, Does.Contain($"  {command} "), command);
    }

    [Test]
    public void Wcfhang_on_a_dump_without_dotnet_gives_diagexts_one_line() =>
        // !wcfhang was exported ahead of its detector: the same DiagExt.dll now runs it.
        Assert.That(_x64["!wcfhang"].NonEmpty.Select(l => l.ToString()), Is.EqualTo(new[]
        {
            $"E|diagext: {WinePrefix.WindowsPath(Repo.SharedDump("win11-x64-crashpad-tiny-exe.dmp"))}: no .NET runtime found in the target (no detector could run: wcfhang skipped)",
        }));

    [Test]
    public void The_generic_export_runs_a_command_by_name_and_refuses_one_it_does_not_have()
    {
        Assert.That(_x64["!diagext dictcycle"].NonEmpty.Select(l => l.ToString()), Is.EqualTo(_x64["!dictcycle"].NonEmpty.Select(l => l.ToString())));
        Assert.That(_x64["!diagext help"].NonEmpty.Select(l => l.Text), Is.EqualTo(_x64["!help"].NonEmpty.Select(l => l.Text)));
        EngineHost.Command unknown = _x64["!diagext nosuch --json"];
        Assert.That(unknown.NonEmpty.Select(l => l.ToString()), Is.EqualTo(new[] { "E|DiagExt: unknown command 'nosuch'; !DiagExt.help lists the commands" }));
    }

    [Test]
    public void Analyze_stays_the_debuggers_own()
    {
        // The engine package has no ext.dll, so no extension here has !analyze: the engine says so, DiagExt does not answer.
        EngineHost.Command analyze = _x64["!analyze"];
        Assert.That(analyze.Lines.Select(l => l.Text), Has.Member("No export analyze found"), analyze.ToString());
        Assert.That(analyze.Lines.Select(l => l.Text), Has.None.Contains("diagext").IgnoreCase, analyze.ToString());
    }

    [Test]
    public void A_format_chosen_by_the_user_replaces_dml() =>
        // The extension passes --dml-console, not --format: the user's --json is not an option given twice.
        Assert.That(_x64["!dictcycle --json"].Errors, Has.Some.Contains("no .NET runtime found in the target"));

    [Test]
    public void A_32_bit_dump_in_a_64_bit_engine_falls_back_to_the_64_bit_diagext_and_says_so()
    {
        string dump = Repo.SharedDump("win-x86-crashpad-tiny-exe.dmp");
        EngineHost.Session session = EngineHost.OpenDump(dump, [Load("x64"), "!loaderlock"]);
        EngineHost.Line[] lines = session["!loaderlock"].NonEmpty.ToArray();
        // No 32-bit .NET runtime under Wine: the framework-dependent x86 diagext cannot run; the 64-bit one
        // still reads the 32-bit dump natively.
        Assert.That(lines[0].ToString(), Does.StartWith("E|DiagExt: the 32-bit diagext in ").And.Contain("needs the 32-bit .NET 10 runtime (dotnet.exe x86)")
            .And.EndWith("using the 64-bit diagext, which cannot load a 32-bit .NET runtime's DAC"), session.Raw);
        Assert.That(lines.Skip(1).Select(l => l.ToString()), Is.EqualTo(new[]
        {
            $"D|{WinePrefix.WindowsPath(dump)}: WINDOWS x86 Windows minidump, no .NET runtime, 3 threads",
            "D|loaderlock: note: PEB not captured: this dump holds no thread's TEB, so neither the PEB nor its LoaderLock can be read; loader lock state unknown",
            "D|no hazard found (loaderlock: 0) in 0.00s; CPU time not recorded in this dump (no ThreadInfoList stream; procdump -ma writes one)",
        }).Using<string>((a, b) => Regex.Replace(a, @"in \d+\.\d\ds", "in Ns") == Regex.Replace(b, @"in \d+\.\d\ds", "in Ns") ? 0 : 1), session.Raw);
    }

    [Test]
    public void The_32_bit_extension_works_in_the_32_bit_engine()
    {
        Assume.That(WinePrefix.Runs32BitPrograms, "Wine cannot run 32-bit programs here (Debian: wine32:i386 is not installed)");
        string dump = Repo.SharedDump("winxp-x86-breakpad-test-app.dmp");
        EngineHost.Session session = EngineHost.OpenDump(dump, [Load("x86"), "!dictcycle"], new EngineHost.Options { Arch = "x86" });
        Assert.That(session[Load("x86")].HResult, Is.Zero, session.Raw);
        Assert.That(session["!dictcycle"].Errors.Last(), Is.EqualTo($"diagext: {WinePrefix.WindowsPath(dump)}: no .NET runtime found in the target (no detector could run: dictcycle skipped)"), session.Raw);
    }
}
