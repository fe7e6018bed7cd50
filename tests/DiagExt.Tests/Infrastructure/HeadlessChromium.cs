using Microsoft.Playwright;

namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// Debian's chromium (scripts/setup-browser.sh installs it), headless, driven by Playwright's .NET package through the
/// node driver the package bundles: nothing is downloaded, Playwright's own browsers included. A test that needs it
/// is skipped with one reason where the browser is missing or will not start; a failure after that is the test's.
/// </summary>
public sealed class HeadlessChromium : IAsyncDisposable
{
    /// <summary>Debian's chromium; DIAGEXT_TEST_CHROMIUM names another (a build elsewhere, or a missing path to see the skip).</summary>
    public static string Executable => Environment.GetEnvironmentVariable("DIAGEXT_TEST_CHROMIUM") is { Length: > 0 } other ? other : "/usr/bin/chromium";

    // No sandbox: CI runs as root, where chromium refuses its sandbox. The rest keeps it from calling out (updates,
    // sync, QUIC probes) while it shows a local page.
    private static readonly string[] Arguments =
    [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ];

    private readonly IPlaywright _playwright;

    private HeadlessChromium(IPlaywright playwright, IBrowser browser)
    {
        _playwright = playwright;
        Browser = browser;
    }

    public IBrowser Browser { get; }

    /// <summary>The browser, started; or the test is ignored, saying why it could not be.</summary>
    public static async Task<HeadlessChromium> StartOrIgnoreAsync()
    {
        if (!File.Exists(Executable))
            Assert.Ignore($"needs Debian's chromium at {Executable} (scripts/setup-browser.sh installs it): not installed here");
        IPlaywright playwright = await Playwright.CreateAsync();
        try
        {
            IBrowser browser = await playwright.Chromium.LaunchAsync(new BrowserTypeLaunchOptions
            {
                ExecutablePath = Executable,
                Headless = true,
                Args = Arguments,
                Timeout = 60_000, // a cold start on a loaded 2-core machine
            });
            return new HeadlessChromium(playwright, browser);
        }
        catch (PlaywrightException e)
        {
            playwright.Dispose();
            Assert.Ignore($"{Executable} could not be started headless: {e.Message.Split('\n')[0].Trim()}");
            throw; // not reached: Ignore throws
        }
    }

    public async ValueTask DisposeAsync()
    {
        await Browser.DisposeAsync();
        _playwright.Dispose();
    }
}
