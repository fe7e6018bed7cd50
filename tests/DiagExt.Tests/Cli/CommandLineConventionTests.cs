using System.Text.RegularExpressions;
using DiagExt.Cli.CommandLine;
using DiagExt.Cli.Commands;
using DiagExt.Core.Reports;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Cli;

/// <summary>
/// What System.CommandLine gives diagext, as dotnet-dump and dotnet-trace users expect it: help flags on every
/// command, @response files, tab completion through dotnet-suggest's [suggest] directive; and the rules
/// diagext keeps on top of it (one line and exit code 2 for every mistake).
/// </summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class CommandLineConventionTests
{
    // A static scan is the cheapest report there is: diagext's own core, no process.
    private static readonly string Assembly = typeof(Finding).Assembly.Location;

    private static string ResponseFile(string name, params string[] lines)
    {
        string path = Path.Combine(Repo.WorkDirectory, name);
        File.WriteAllLines(path, lines);
        return path;
    }

    [Test]
    public void Every_command_answers_every_help_flag_with_its_help()
    {
        foreach (ICommand command in CommandCatalog.All)
        {
            string expected = Diagext.Run("help", command.Name).Stdout;
            foreach (string flag in new[] { "-h", "-?", "--help" })
            {
                Diagext.Result result = Diagext.Run(command.Name, flag);
                Assert.That(result.ExitCode, Is.EqualTo(0), $"{command.Name} {flag}: {result.Stderr}");
                Assert.That(result.Stdout, Is.EqualTo(expected), $"{command.Name} {flag}");
            }
        }
    }

    [Test]
    public void Help_wins_over_other_mistakes_on_the_line() =>
        Assert.That(Diagext.Run("dictcycle", "--bogus", "-h").Stdout, Is.EqualTo(Diagext.Run("help", "dictcycle").Stdout));

    [TestCase("dictcycle --pid 1 --pid 2", "option --pid given twice")]
    [TestCase("analyze -q --quiet a.dmp b.dmp", "option --quiet given twice")]
    [TestCase("analyze --quiet=yes a.dmp b.dmp", "option --quiet takes no value")]
    [TestCase("dictcycle -x a.dmp", "unknown option '-x'")]
    [TestCase("dictcycle --bogus=3 a.dmp", "unknown option '--bogus'")]
    [TestCase("dictcycle a.dmp --jobs 2", "unknown option '--jobs'")]
    [TestCase("dictcycle -- --bogus", "--bogus: no such file")]
    [TestCase("dictcycle --pid=abc", "--pid expects a number, not 'abc'")]
    [TestCase("dictcycle -pabc", "--pid expects a number, not 'abc'")]
    public void Mistakes_are_one_line_and_exit_code_2(string commandLine, string expected) =>
        BadInputTests.AssertOneLineError(Diagext.Run(commandLine.Split(' ')), expected);

    private static string Untimed(string json) => Regex.Replace(json, @"""elapsedMs"": [\d.]+", "T");

    [Test]
    public void A_response_file_is_the_same_as_its_arguments()
    {
        string rsp = ResponseFile("ctororder.rsp", "# a static scan of diagext's core", "--assembly", $"\"{Assembly}\"", "--json");
        Diagext.Result direct = Diagext.Run("ctororder", "--assembly", Assembly, "--json");
        Diagext.Result viaFile = Diagext.Run("ctororder", $"@{rsp}");

        Assert.That(viaFile.ExitCode, Is.EqualTo(direct.ExitCode), viaFile.Stderr);
        Assert.That(Untimed(viaFile.Stdout), Is.EqualTo(Untimed(direct.Stdout)));
    }

    [Test]
    public void A_response_file_keeps_the_json_rule_and_may_name_the_command_and_another_file()
    {
        // "--json" then a dump, on two lines of a file read from another file: the dump stays a dump.
        string inner = ResponseFile("inner.rsp", "--json", "\"dump with space.dmp\"");
        string outer = ResponseFile("outer.rsp", "analyze", $"@{inner}");
        SystemCommandLineAdapter.Request request = new SystemCommandLineAdapter(CommandCatalog.All, []).Parse([$"@{outer}"]);

        Assert.That(request.Command?.Name, Is.EqualTo("analyze"));
        Assert.That(request.Arguments.Positionals, Is.EqualTo(new[] { "dump with space.dmp" }));
        Assert.That(request.Arguments.Has("--json"), Is.True);
        Assert.That(request.Arguments.Value("--json"), Is.Null);
    }

    [Test]
    public void A_missing_response_file_is_one_line() =>
        BadInputTests.AssertOneLineError(Diagext.Run("analyze", "@/nonexistent/args.rsp"), "response file '/nonexistent/args.rsp' not found");

    [Test]
    public void A_response_file_that_names_itself_is_one_line_not_a_hang()
    {
        string path = Path.Combine(Repo.WorkDirectory, "self.rsp");
        File.WriteAllText(path, $"a.dmp\n@{path}\n");
        BadInputTests.AssertOneLineError(Diagext.Run("analyze", $"@{path}"), "nest more than 8 deep");
    }

    [TestCase("analyze --th", "--threads")]
    [TestCase("ana", "analyze")]
    [TestCase("dictcycle --symbol-s", "--symbol-server")]
    public void Completion_through_the_suggest_directive(string commandLine, string completion)
    {
        Diagext.Result result = Diagext.Run($"[suggest:{commandLine.Length}]", commandLine);
        Assert.That(result.ExitCode, Is.EqualTo(0), result.Stderr);
        Assert.That(result.Stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries), Is.EqualTo(new[] { completion }));
    }

    [Test]
    public void The_real_executable_completes_as_dotnet_suggest_calls_it()
    {
        ProcessRunner.Result result = ProcessRunner.Run(Diagext.Executable, ["[suggest:12]", "analyze --th"], TimeSpan.FromMinutes(1));
        Assert.That(result.ExitCode, Is.EqualTo(0), result.Stderr);
        Assert.That(result.Stdout.Trim(), Is.EqualTo("--threads"));
    }

    [TestCase("[suggest:x]", "[suggest:POSITION]")]
    [TestCase("[suggest:-3]", "[suggest:POSITION]")]
    [TestCase("[diagram]", "unknown directive '[diagram]'")]
    public void A_directive_diagext_cannot_answer_is_one_line(string directive, string expected) =>
        BadInputTests.AssertOneLineError(Diagext.Run(directive, "analyze"), expected);

    [TestCase("-h")]
    [TestCase("-?")]
    [TestCase("--help")]
    public void Diagext_alone_answers_every_help_flag_with_the_command_list(string flag)
    {
        Diagext.Result result = Diagext.Run(flag);
        Assert.That(result.ExitCode, Is.EqualTo(0), result.Stderr);
        Assert.That(result.Stdout, Does.Contain("commands:"));
    }
}
