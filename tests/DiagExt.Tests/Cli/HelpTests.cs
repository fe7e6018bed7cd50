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
        Assert.That(result.Stdout, Does.Contain("0 nothing found, 1 hazards found, 2 usage or input error"));
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
}
