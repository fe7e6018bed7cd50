namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// The suite's categories, one per fixture (TestKindTests checks it), so a contributor can run the part that fits
/// the change: <c>scripts/test.sh --fast</c> runs <see cref="Unit"/> in parallel; the full suite runs them all.
/// </summary>
public static class TestKind
{
    /// <summary>No process started, no dump made: parsers, renderers, the CLI in-process, the catalog.</summary>
    public const string Unit = "unit";

    /// <summary>Builds and runs programs: a sample dumped with createdump or attached to, the bench, the packed tool.</summary>
    public const string Dump = "dump";

    /// <summary>Runs under Wine: Windows samples and their minidumps, the extension inside Microsoft's dbgeng.</summary>
    public const string Windows = "windows";

    /// <summary>Programs and packages from the registries, not written here.</summary>
    public const string RealPrograms = "real-programs";

    /// <summary>The fuzz targets on their seeds and a short AFL++ run.</summary>
    public const string FuzzSmoke = "fuzz-smoke";

    /// <summary>
    /// Starts a one-node Slurm cluster (munged, slurmctld, slurmd: <see cref="SlurmCluster"/>) and runs a batch's shards
    /// as a job array; skips, saying why, where Slurm is not installed (scripts/setup-slurm.sh installs it).
    /// </summary>
    public const string Slurm = "slurm";

    public static readonly IReadOnlyList<string> All = [Unit, Dump, Windows, RealPrograms, FuzzSmoke, Slurm];
}
