using DiagExt.Tests.Infrastructure;
using DiagExt.Cli.Batch;
using DiagExt.Cli.CommandLine;
using DiagExt.Cli.Commands;

namespace DiagExt.Tests.Cli;

/// <summary>
/// "--json" stays a flag for one target (stdout), and names a batch report file only when unambiguous:
/// "--json=FILE" or "--json FILE.json". "--json a.dmp" must never take the dump as the file to write.
/// </summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class JsonOptionTests
{
    private static readonly SystemCommandLineAdapter Parser = new(CommandCatalog.All, []);

    private static ParsedArguments Parse(params string[] args) => Parser.Parse(CommandCatalog.Find("analyze")!, args);

    [Test]
    public void Json_alone_is_stdout()
    {
        ParsedArguments a = Parse("a.dmp", "--json");
        Assert.That(a.Has("--json"), Is.True);
        Assert.That(a.Value("--json"), Is.Null);
        Assert.That(BatchMode.Applies(a), Is.False, "one dump with --json keeps the single-dump object on stdout");
    }

    [Test]
    public void Json_before_a_dump_does_not_swallow_it()
    {
        ParsedArguments a = Parse("--json", "a.dmp");
        Assert.That(a.Value("--json"), Is.Null);
        Assert.That(a.Positionals, Is.EqualTo(new[] { "a.dmp" }));
    }

    [TestCase("--json", "report.json")]
    [TestCase("--json", "out/Report.JSON")]
    [TestCase("--json=report.txt")]
    public void A_file_makes_it_a_batch_report(params string[] option)
    {
        ParsedArguments a = Parse(["a.dmp", .. option]);
        Assert.That(a.Value("--json"), Is.Not.Null);
        Assert.That(a.Positionals, Is.EqualTo(new[] { "a.dmp" }));
        Assert.That(BatchMode.Applies(a), Is.True);
    }

    [Test]
    public void A_json_file_on_a_single_target_command_is_a_usage_error()
    {
        Infrastructure.Diagext.Result result = Infrastructure.Diagext.Run("dictcycle", "a.dmp", "--json", "r.json");
        Assert.That(result.ExitCode, Is.EqualTo(2));
        Assert.That(result.Stderr, Does.Contain("--json r.json: a JSON file is a batch report of 'diagext analyze'"));
    }

    [TestCase("90", 90)]
    [TestCase("90s", 90)]
    [TestCase("1.5m", 90)]
    [TestCase("250ms", 0.25)]
    [TestCase("1h", 3600)]
    public void Durations(string text, double seconds) => Assert.That(Quantities.ParseDuration("--timeout", text).TotalSeconds, Is.EqualTo(seconds));

    [TestCase("512M", 512L * 1024 * 1024)]
    [TestCase("4G", 4L * 1024 * 1024 * 1024)]
    [TestCase("4GiB", 4L * 1024 * 1024 * 1024)]
    [TestCase("100", 100L * 1024 * 1024)]
    public void Sizes(string text, long bytes) => Assert.That(Quantities.ParseSize("--max-memory", text), Is.EqualTo(bytes));

    [TestCase("analyze a.dmp --timeout soon", "--timeout expects a duration")]
    [TestCase("analyze a.dmp b.dmp --max-memory lots", "--max-memory expects a size")]
    [TestCase("analyze a.dmp b.dmp --jobs 0", "--jobs must be at least 1")]
    [TestCase("analyze --pid 1 --html r.html", "are for dumps")]
    [TestCase("analyze a.dmp b.dmp --format dml", "--format is for one dump")]
    [TestCase("dictcycle a.dmp --snapshot", "--snapshot goes with --pid")]
    [TestCase("attach", "attach needs one process id")]
    [TestCase("attach 1 2", "attach needs one process id")]
    public void Bad_batch_and_attach_options(string commandLine, string expected)
    {
        Infrastructure.Diagext.Result result = Infrastructure.Diagext.Run(commandLine.Split(' '));
        Assert.That(result.ExitCode, Is.EqualTo(2), result.Stderr);
        Assert.That(result.Stderr.Trim().Split('\n'), Has.Length.EqualTo(1));
        Assert.That(result.Stderr, Does.Contain(expected));
    }
}
