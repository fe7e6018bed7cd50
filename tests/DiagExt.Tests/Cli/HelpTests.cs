using DiagExt.Cli.Commands;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Cli;

[TestFixture]
public class HelpTests
{
    [Test]
    public void Help_lists_every_command_and_the_exit_codes()
    {
        Diagext.Result result = Diagext.Run("--help");
        Assert.That(result.ExitCode, Is.EqualTo(0));
        foreach (ICommand command in CommandCatalog.All)
            Assert.That(result.Stdout, Does.Contain(command.Name));
        Assert.That(result.Stdout, Does.Contain("0 nothing found, 1 hazards found, 2 usage or input error, 3 incomplete (a detector failed, none found a hazard), 130 cancelled by Ctrl+C, 143 by SIGTERM"));
    }

    [Test]
    public void Every_listed_command_has_help_that_names_its_options()
    {
        foreach (ICommand command in CommandCatalog.All)
        {
            Diagext.Result result = Diagext.Run("help", command.Name);
            Assert.That(result.ExitCode, Is.EqualTo(0), command.Name);
            Assert.That(result.Stdout, Does.StartWith($"usage: diagext {command.Name}"));
            foreach (var option in command.Options)
                Assert.That(result.Stdout, Does.Contain(option.Name), $"{command.Name} {option.Name}");
        }
    }

    [Test]
    public void Command_help_flag_matches_help_command() =>
        Assert.That(Diagext.Run("dictcycle", "--help").Stdout, Is.EqualTo(Diagext.Run("help", "dictcycle").Stdout));

    [Test]
    public void Version() => Assert.That(Diagext.Run("--version").Stdout, Does.Match(@"^diagext \d+\.\d+\.\d+ \(ClrMD"));

    [Test]
    public void No_arguments_is_a_usage_error_with_the_command_list()
    {
        Diagext.Result result = Diagext.Run();
        Assert.That(result.ExitCode, Is.EqualTo(2));
        Assert.That(result.Stderr, Does.Contain("commands:"));
    }

    [Test]
    public void An_unknown_command_gets_the_same_answer_alone_and_after_help()
    {
        Diagext.Result alone = Diagext.Run("bogus"), afterHelp = Diagext.Run("help", "bogus");

        Assert.That(alone.ExitCode, Is.EqualTo(2));
        Assert.That(afterHelp.ExitCode, Is.EqualTo(2));
        Assert.That(afterHelp.Stderr, Is.EqualTo(alone.Stderr));
        Assert.That(alone.Stderr.Trim(), Is.EqualTo("diagext: unknown command 'bogus' (see 'diagext help')"));
    }

    [TestCase(new[] { "analyz", "x.core" }, "unknown command 'analyz'; did you mean 'analyze'?")]
    [TestCase(new[] { "help", "dictcyle" }, "unknown command 'dictcyle'; did you mean 'dictcycle'?")]
    [TestCase(new[] { "analyze", "x.core", "--jsno" }, "unknown option '--jsno'; did you mean '--json'?")]
    [TestCase(new[] { "dictcycle", "x.core", "--symbol-sever" }, "unknown option '--symbol-sever'; did you mean '--symbol-server'?")]
    public void A_typo_gets_the_closest_name(string[] args, string message)
    {
        Diagext.Result result = Diagext.Run(args);

        Assert.That(result.ExitCode, Is.EqualTo(2));
        Assert.That(result.Stderr.Trim(), Is.EqualTo($"diagext: {message} (see 'diagext help')"));
    }
}
