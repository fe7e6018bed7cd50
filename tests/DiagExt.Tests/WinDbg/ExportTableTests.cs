using System.Reflection.PortableExecutable;
using DiagExt.Cli.Commands;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.WinDbg;

/// <summary>
/// What the debugger looks up in DiagExt.dll: the engine's three entry points, the generic !diagext, and one export per
/// command the catalog gives its own export (generated at build from 'diagext help --list'), undecorated on both
/// architectures; and nothing to ship beside it.
/// </summary>
[TestFixture]
[Category(TestKind.Windows)]
public class ExportTableTests
{
    private static IEnumerable<string> Expected =>
        new[] { "DebugExtensionInitialize", "DebugExtensionUninitialize", "DebugExtensionNotify", "diagext" }
            .Concat(CommandCatalog.All.Where(c => c.OwnExport).Select(c => c.Name));

    // Windows itself; anything else (libstdc++-6.dll, libgcc_s_*.dll, libwinpthread-1.dll) would have to be shipped.
    private static readonly string[] SystemDlls = ["kernel32.dll", "advapi32.dll", "user32.dll", "msvcrt.dll"];

    [TestCase("x64", Machine.Amd64)]
    [TestCase("x86", Machine.I386)]
    public void Exports_exactly_the_commands_undecorated(string arch, Machine machine)
    {
        var image = new PeImage(WinDbgPackage.Extension(arch));
        Assert.That(image.Machine, Is.EqualTo(machine));
        Assert.That(image.IsDll, Is.True);
        Assert.That(image.ExportNames(), Is.EquivalentTo(Expected), "x86 __stdcall names would read _help@8 without the .def file");
    }

    [TestCase("x64")]
    [TestCase("x86")]
    public void Links_the_runtime_statically(string arch) =>
        Assert.That(new PeImage(WinDbgPackage.Extension(arch)).ImportedDlls(), Is.SubsetOf(SystemDlls));
}
