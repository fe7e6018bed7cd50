using System.IO.Compression;
using System.Xml.Linq;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Cli;

/// <summary>
/// The install hint (README, docs/install.md), done for real: the packages scripts/pack-tool.sh makes (the pointer,
/// diagext.linux-x64 by Native AOT, the framework-dependent diagext.any), installed with dotnet tool install from a
/// local source into a tool path: on this linux-x64 machine the installed diagext is the native executable, a platform
/// with no package of its own gets 'any', and the package carries what a package page shows.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class ToolPackageTests
{
    private const string Version = "0.1.0";

    private static string Work => ToolPackages.Work;

    private static readonly Lazy<string> Installed = new(() => Install(ToolPackages.Folder, "tools"));

    private static string Install(string source, string into)
    {
        string tools = Path.Combine(Work, into);
        ProcessRunner.Result install = ProcessRunner.Run("dotnet", ["tool", "install", "diagext", "--add-source", source, "--tool-path", tools], TimeSpan.FromMinutes(5));
        Assert.That(install.ExitCode, Is.Zero, install.Stdout + install.Stderr);
        return tools;
    }

    private static void AssertRuns(string tools)
    {
        ProcessRunner.Result version = ProcessRunner.Run(Path.Combine(tools, "diagext"), ["--version"], TimeSpan.FromMinutes(1));
        Assert.That(version.ExitCode, Is.Zero, version.Stderr);
        Assert.That(version.Stdout, Does.StartWith($"diagext {Version}"));
    }

    /// <summary>The files of the package a tool path's diagext came from, under its .store.</summary>
    private static string[] StoreFiles(string tools, string packageId) =>
        Directory.GetFiles(Path.Combine(tools, ".store", "diagext", Version, packageId), "*", SearchOption.AllDirectories);

    [Test]
    public void The_installed_tool_on_linux_x64_is_the_native_executable()
    {
        if (System.Runtime.InteropServices.RuntimeInformation.RuntimeIdentifier != "linux-x64")
            Assert.Ignore("Native AOT is packed for linux-x64 only (scripts/pack-tool.sh)");
        string tools = Installed.Value;

        // The command is the AOT executable itself (the SDK links it, no shim): an ELF file from diagext.linux-x64 with
        // no diagext.dll beside it, so nothing is JIT-compiled when it starts.
        FileSystemInfo command = new FileInfo(Path.Combine(tools, "diagext"));
        string executable = command.ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? command.FullName;
        Assert.That(executable, Does.Contain($"{Path.DirectorySeparatorChar}diagext.linux-x64{Path.DirectorySeparatorChar}"));
        byte[] head = new byte[4];
        using (FileStream file = File.OpenRead(executable))
            file.ReadExactly(head);
        Assert.That(head, Is.EqualTo(new byte[] { 0x7f, (byte)'E', (byte)'L', (byte)'F' }));
        Assert.That(StoreFiles(tools, "diagext.linux-x64").Select(Path.GetFileName), Has.None.EqualTo("diagext.dll").And.None.EndsWith(".dbg"));
        AssertRuns(tools);
    }

    [Test]
    public void A_renamed_native_executable_still_starts_its_isolated_child()
    {
        // analyze of one dump runs in a child diagext: it used to look for a file named diagext beside itself, so a copy
        // under another name started 'dotnet diagext.dll', which is not there, and every analysis failed (exit 1, no findings).
        if (ToolPackages.NativeExecutable is not { } native)
        {
            Assert.Ignore("no Native AOT diagext on this machine (clang missing)");
            return;
        }
        string folder = Path.Combine(Work, "renamed");
        Directory.CreateDirectory(folder);
        string renamed = Path.Combine(folder, "diagext-copy");
        File.Copy(native, renamed, overwrite: true);
        string dump = DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core");

        ProcessRunner.Result result = ProcessRunner.Run(renamed, ["analyze", dump, "--json"], TimeSpan.FromMinutes(2));

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stdout + result.Stderr);
        Assert.That(result.Stdout, Does.Contain("\"detector\": \"dictcycle\""), result.Stderr);
    }

    [Test]
    public void A_platform_without_its_own_package_gets_the_framework_dependent_one()
    {
        // This machine stands in for such a platform: a pointer naming linux-arm64 and any (nothing for linux-x64),
        // with the 'any' package the script made, so the CLI's own choice of package is what is tested.
        string packed = ToolPackages.Folder; // first: packing empties the work folder
        string source = Path.Combine(Work, "other-platform");
        Directory.CreateDirectory(source);
        File.Copy(Path.Combine(packed, $"diagext.any.{Version}.nupkg"), Path.Combine(source, $"diagext.any.{Version}.nupkg"), overwrite: true);
        ProcessRunner.Result pack = ProcessRunner.Run("dotnet",
            ["pack", Path.Combine(Repo.Root, "managed", "DiagExt.Cli"), "-c", "Release", "--no-build", "-o", source, "-p:ToolPackageRuntimeIdentifiers=\"linux-arm64;any\"", "--nologo", "-v", "q"],
            TimeSpan.FromMinutes(5));
        Assert.That(pack.ExitCode, Is.Zero, pack.Stdout + pack.Stderr);

        string tools = Install(source, "tools-other-platform");

        Assert.That(StoreFiles(tools, "diagext.any").Select(Path.GetFileName), Has.Member("diagext.dll"));
        Assert.That(Directory.Exists(Path.Combine(tools, ".store", "diagext", Version, "diagext.linux-arm64")), Is.False);
        AssertRuns(tools);
    }

    [Test]
    public void The_pointer_package_carries_no_code_and_names_both_packages()
    {
        using ZipArchive package = ZipFile.OpenRead(Path.Combine(ToolPackages.Folder, $"diagext.{Version}.nupkg"));
        Assert.That(package.Entries.Select(e => e.FullName).Where(n => n.StartsWith("tools/", StringComparison.Ordinal)), Is.EqualTo(new[] { "tools/any/any/DotnetToolSettings.xml" }));
        XElement settings = XDocument.Load(package.GetEntry("tools/any/any/DotnetToolSettings.xml")!.Open()).Root!;
        Assert.That(settings.Descendants("RuntimeIdentifierPackage").Select(p => (string?)p.Attribute("RuntimeIdentifier") + "=" + (string?)p.Attribute("Id")),
            Is.EquivalentTo(new[] { "linux-x64=diagext.linux-x64", "any=diagext.any" }));
    }

    [Test]
    public void The_package_has_a_readme_a_licence_and_a_description_of_what_ships()
    {
        using ZipArchive package = ZipFile.OpenRead(Path.Combine(ToolPackages.Folder, $"diagext.{Version}.nupkg"));
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
