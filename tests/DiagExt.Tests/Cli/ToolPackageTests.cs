using System.IO.Compression;
using System.Xml.Linq;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Cli;

/// <summary>
/// The install hint (README, docs/install.md), done for real: the package dotnet pack makes from this build, installed with
/// dotnet tool install from a local source into a tool path, runs; and it carries what a package page shows.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class ToolPackageTests
{
    private static readonly Lazy<(string Package, string Tools)> Installed = new(() =>
    {
        string work = Path.Combine(Repo.WorkDirectory, "tool-package");
        if (Directory.Exists(work))
            Directory.Delete(work, recursive: true);
        string source = Path.Combine(work, "nupkg"), tools = Path.Combine(work, "tools");
        ProcessRunner.Result pack = ProcessRunner.Run("dotnet",
            ["pack", Path.Combine(Repo.Root, "managed", "DiagExt.Cli"), "-c", "Release", "--no-build", "-o", source, "--nologo", "-v", "q"], TimeSpan.FromMinutes(5));
        Assert.That(pack.ExitCode, Is.Zero, pack.Stdout + pack.Stderr);
        ProcessRunner.Result install = ProcessRunner.Run("dotnet", ["tool", "install", "diagext", "--add-source", source, "--tool-path", tools], TimeSpan.FromMinutes(5));
        Assert.That(install.ExitCode, Is.Zero, install.Stdout + install.Stderr);
        return (Directory.GetFiles(source, "diagext.*.nupkg").Single(), tools);
    });

    [Test]
    public void The_installed_tool_runs()
    {
        ProcessRunner.Result version = ProcessRunner.Run(Path.Combine(Installed.Value.Tools, "diagext"), ["--version"], TimeSpan.FromMinutes(1));

        Assert.That(version.ExitCode, Is.Zero, version.Stderr);
        Assert.That(version.Stdout, Does.StartWith("diagext 0.1.0"));
    }

    [Test]
    public void The_package_has_a_readme_a_licence_and_a_description_of_what_ships()
    {
        using ZipArchive package = ZipFile.OpenRead(Installed.Value.Package);
        XElement metadata = XDocument.Load(package.Entries.Single(e => e.FullName.EndsWith(".nuspec")).Open()).Root!.Elements().Single(e => e.Name.LocalName == "metadata");
        string Field(string name) => metadata.Elements().Single(e => e.Name.LocalName == name).Value;

        Assert.That(Field("license"), Is.EqualTo("MIT"));
        Assert.That(Field("readme"), Is.EqualTo("PACKAGE.md"));
        string readme = new StreamReader(package.GetEntry("PACKAGE.md")!.Open()).ReadToEnd();
        // Both are generated at pack from the catalog: a row per debugger command (help aside), the names in the description.
        string[] commands = DiagExt.Cli.Commands.CommandCatalog.All.Where(c => c.InDebugger && c.Name != "help").Select(c => c.Name).ToArray();
        Assert.That(readme.Split('\n').Where(l => l.StartsWith("| `diagext ", StringComparison.Ordinal)),
            Is.EqualTo(DiagExt.Cli.Commands.CommandCatalog.All.Where(c => commands.Contains(c.Name)).Select(c => $"| `diagext {c.Name}` | {c.Summary} |")));
        Assert.That(Field("description"), Does.Contain($"Commands: {string.Join(", ", commands)};"));
        Assert.That(readme, Does.Not.Contain("@COMMAND_ROWS@"));
    }
}
