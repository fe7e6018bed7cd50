using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.DictCycle;

/// <summary>
/// A dump whose runtime is not on this machine (here: a self-contained .NET Core 3.1 app deleted after its
/// dump was taken, as when a dump arrives from a customer). diagext must name the runtime it wanted and the
/// --dac option, never download anything, and work once the DAC is passed.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class MissingDacTests
{
    [Test]
    public void Names_the_wanted_runtime_and_the_dac_option_then_works_with_dac()
    {
        string built = Path.GetDirectoryName(SampleBuilder.Build("DictShapes", "netcoreapp3.1"))!;
        string moved = Path.Combine(Repo.WorkDirectory, "gone-app-" + Guid.NewGuid().ToString("N")[..8]);
        CopyDirectory(built, moved);
        string dump;
        using (SampleProcess sample = SampleProcess.StartAndWaitReady(Path.Combine(moved, "DictShapes"), ["corrupt"], TimeSpan.FromMinutes(2)))
            dump = DumpMaker.Dump(sample.Pid, "core31-moved-app.core", Path.Combine(moved, "createdump"));
        string dac = Path.Combine(Repo.WorkDirectory, "libmscordaccore-3.1.so");
        File.Copy(Path.Combine(moved, "libmscordaccore.so"), dac, overwrite: true);
        Directory.Delete(moved, recursive: true);

        Diagext.Result missing = Diagext.Run("dictcycle", dump);
        Assert.That(missing.ExitCode, Is.EqualTo(2));
        Assert.That(missing.Stderr.Trim().Split('\n'), Has.Length.EqualTo(1));
        Assert.That(missing.Stderr, Does.Contain(".NET Core 3.x (libcoreclr.so 4.700."));
        Assert.That(missing.Stderr, Does.Contain("no matching DAC (libmscordaccore.so)"));
        Assert.That(missing.Stderr, Does.Contain("--dac PATH"));
        Assert.That(missing.Stderr, Does.Contain("--symbol-server").And.Contain("downloads only when asked"));

        Diagext.Result withDac = Diagext.Run("dictcycle", dump, "--dac", dac, "--json");
        Assert.That(withDac.ExitCode, Is.EqualTo(1), withDac.Stderr);
        Assert.That(withDac.Findings.Select(f => f.GetProperty("holder").GetString()), Has.Member("LegacyProgram.DictionarySelfCycle"));
    }

    private static void CopyDirectory(string from, string to)
    {
        Directory.CreateDirectory(to);
        foreach (string file in Directory.GetFiles(from))
        {
            string target = Path.Combine(to, Path.GetFileName(file));
            File.Copy(file, target);
            if (OperatingSystem.IsLinux())
                File.SetUnixFileMode(target, File.GetUnixFileMode(file));
        }
    }
}
