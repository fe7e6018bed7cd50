using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Symbols;

/// <summary>
/// A dump of a .NET 8 process whose runtime is nowhere on this machine, analysed with its DAC served by a
/// symbol server on 127.0.0.1: downloaded only when asked, cached, reused; every way a server can fail gives
/// one line with the URL and exit code 2, and leaves nothing in the cache.
/// </summary>
[TestFixture]
[NonParallelizable]
[Category(TestKind.Dump)]
public class DacDownloadTests
{
    private LoopbackSymbolServer _server = null!;
    private string _caches = null!;

    [OneTimeSetUp]
    public void StartServer()
    {
        _ = OtherRuntimeDump.Dump;
        _server = new LoopbackSymbolServer(OtherRuntimeDump.Store);
        _caches = Path.Combine(Repo.WorkDirectory, "symbol-caches");
        if (Directory.Exists(_caches))
            Directory.Delete(_caches, recursive: true);
    }

    [OneTimeTearDown]
    public void StopServer() => _server?.Dispose(); // null when the dump could not be made: that failure is the one to read

    /// <summary>Runs the diagext executable with its own empty cache home and no symbol path from this machine's environment.</summary>
    private ProcessRunner.Result Run(string cacheHome, IDictionary<string, string>? environment, params string[] args)
    {
        var env = new Dictionary<string, string> { ["XDG_CACHE_HOME"] = cacheHome, ["_NT_SYMBOL_PATH"] = "", ["DIAGEXT_SYMBOL_PATH"] = "" };
        foreach (var (k, v) in environment ?? new Dictionary<string, string>())
            env[k] = v;
        return ProcessRunner.Run(Diagext.Executable, args, TimeSpan.FromMinutes(2), environment: env);
    }

    private string FreshCache(string name) => Path.Combine(_caches, name);

    private int RequestsFor(string behaviour) => _server.Requests.Count(r => r.StartsWith($"/{behaviour}/", StringComparison.Ordinal));

    [Test]
    public void Without_a_symbol_server_nothing_is_downloaded_and_the_line_says_what_to_do()
    {
        int before = _server.Requests.Count;
        ProcessRunner.Result result = Run(FreshCache("none"), null, "dictcycle", OtherRuntimeDump.Dump);

        Assert.That(result.ExitCode, Is.EqualTo(2), result.Stdout + result.Stderr);
        string line = result.Stderr.Trim();
        Assert.That(line.Split('\n'), Has.Length.EqualTo(1), line);
        Assert.That(line, Does.Contain("no matching DAC (libmscordaccore.so)"));
        // The self-contained runtime's folder names no version, and ClrMD reads none from an ELF core: the stamp in the binary does.
        Assert.That(line, Does.Contain($"(libcoreclr.so {OtherRuntimeDump.RuntimeVersion}"));
        Assert.That(line, Does.Contain("--symbol-server"));
        Assert.That(line, Does.Contain($"https://msdl.microsoft.com/download/symbols/{OtherRuntimeDump.Key}"));
        Assert.That(line, Does.Contain("downloads only when asked"));
        Assert.That(_server.Requests.Count, Is.EqualTo(before));
    }

    [Test]
    public void With_a_symbol_server_the_DAC_is_downloaded_once_and_the_second_run_uses_the_cache()
    {
        string cache = FreshCache("server");
        int before = RequestsFor("store");

        ProcessRunner.Result first = Run(cache, null, "dictcycle", OtherRuntimeDump.Dump, "--symbol-server", _server.Url("store").ToString(), "--json");
        Assert.That(first.ExitCode, Is.EqualTo(1), first.Stderr);
        Assert.That(first.Stdout, Does.Contain("\"detector\": \"dictcycle\""));
        Assert.That(RequestsFor("store"), Is.EqualTo(before + 1));
        string cached = Path.Combine(cache, "diagext", "symbols", OtherRuntimeDump.Key);
        Assert.That(File.ReadAllBytes(cached), Is.EqualTo(File.ReadAllBytes(Path.Combine(OtherRuntimeDump.Store, OtherRuntimeDump.Key))));

        ProcessRunner.Result second = Run(cache, null, "dictcycle", OtherRuntimeDump.Dump, "--symbol-server", _server.Url("store").ToString(), "--json");
        Assert.That(second.ExitCode, Is.EqualTo(1), second.Stderr);
        Assert.That(RequestsFor("store"), Is.EqualTo(before + 1), "the second run must not ask the server again");

        // The cache is a folder, no network: later runs find the DAC there even without the option.
        ProcessRunner.Result third = Run(cache, null, "dictcycle", OtherRuntimeDump.Dump);
        Assert.That(third.ExitCode, Is.EqualTo(1), third.Stderr);
    }

    [Test]
    public void A_srv_entry_in_NT_SYMBOL_PATH_downloads_into_its_own_cache_and_follows_a_redirect()
    {
        string cache = Path.Combine(FreshCache("nt-symbol-path"), "downstream");
        ProcessRunner.Result result = Run(FreshCache("nt-home"), new Dictionary<string, string> { ["_NT_SYMBOL_PATH"] = $"srv*{cache}*{_server.Url("redirect")}" },
            "dictcycle", OtherRuntimeDump.Dump);

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        Assert.That(File.Exists(Path.Combine(cache, OtherRuntimeDump.Key)));
    }

    [TestCase("store-missing", "not on the server (404)")]
    [TestCase("garbage", "is not a 64-bit ELF shared object; not kept")]
    [TestCase("huge", "more than a DAC can be")]
    [TestCase("endless", "more than 256 MB")]
    [TestCase("silent", "no answer for 1 s")]
    [TestCase("to-file", "redirected to a file: URL")]
    public void A_failing_server_gives_one_line_with_the_URL_and_leaves_no_file(string behaviour, string why)
    {
        string cache = FreshCache("fail-" + behaviour);
        Uri url = behaviour == "store-missing" ? new Uri(_server.Url("store"), "nothing-here/") : _server.Url(behaviour);

        ProcessRunner.Result result = Run(cache, null, "dictcycle", OtherRuntimeDump.Dump, $"--symbol-server={url}", "--symbol-timeout", "1s");

        Assert.That(result.ExitCode, Is.EqualTo(2), result.Stdout + result.Stderr);
        string line = result.Stderr.Trim();
        Assert.That(line.Split('\n'), Has.Length.EqualTo(1), line);
        Assert.That(line, Does.Contain($"{url}{OtherRuntimeDump.Key}"));
        Assert.That(line, Does.Contain(why));
        Assert.That(line, Does.Not.Contain("   at "), "no stack trace");
        string symbols = Path.Combine(cache, "diagext", "symbols");
        Assert.That(Directory.Exists(symbols) ? Directory.GetFiles(symbols, "*", SearchOption.AllDirectories) : [], Is.Empty);
    }

    [TestCase("--symbol-server=ftp://127.0.0.1/", "give an http or https URL")]
    [TestCase("--symbol-path=http://127.0.0.1/", "is a URL without srv*")]
    [TestCase("--symbol-path=srv*", "names no server")]
    [TestCase("--symbol-timeout=0s", "expects a duration")]
    public void Bad_symbol_options_are_usage_errors(string option, string message)
    {
        ProcessRunner.Result result = Run(FreshCache("usage"), null, "dictcycle", OtherRuntimeDump.Dump, option);

        Assert.That(result.ExitCode, Is.EqualTo(2));
        Assert.That(result.Stderr, Does.Contain(message));
    }

    [Test]
    public void An_unrelated_NT_SYMBOL_PATH_entry_is_skipped_not_an_error()
    {
        ProcessRunner.Result result = Run(FreshCache("lenient"), new Dictionary<string, string> { ["_NT_SYMBOL_PATH"] = $"weird*entry;srv*{FreshCache("lenient-store")}*{_server.Url("store")}" },
            "dictcycle", OtherRuntimeDump.Dump);

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
    }
}
