namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// A one-node Slurm cluster for one fixture, started and stopped by scripts/slurm-local.sh (munged with a key of its
/// own, slurmctld and slurmd with a slurm.conf in a temp folder, on free ports; docs/batch.md, "Slurm (ran here)"). Clients
/// run here get its SLURM_CONF.
/// </summary>
public sealed class SlurmCluster : IDisposable
{
    private static readonly string Script = Path.Combine(Repo.Root, "scripts", "slurm-local.sh");
    private readonly string _folder;

    private SlurmCluster(string folder) => _folder = folder;

    /// <summary>Why Slurm cannot run here (the one reason a skipping test gives), or null.</summary>
    public static string? Unavailable
    {
        get
        {
            string[] needed = ["/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/sbatch", "/usr/bin/squeue", "/usr/bin/sinfo"];
            string[] missing = needed.Where(p => !File.Exists(p)).Select(Path.GetFileName).OfType<string>().ToArray();
            return missing.Length == 0 ? null
                : $"Slurm is not installed ({string.Join(", ", missing)} missing): scripts/setup-slurm.sh installs slurmctld, slurmd, slurm-client and munge with apt";
        }
    }

    public string Conf => Path.Combine(_folder, "slurm.conf");

    public static SlurmCluster Start()
    {
        string folder = Path.Combine(Path.GetTempPath(), $"diagext-slurm-{Environment.ProcessId}-{Guid.NewGuid():N}"[..40]);
        var cluster = new SlurmCluster(folder);
        ProcessRunner.Result start = ProcessRunner.Run("bash", [Script, "start", folder], TimeSpan.FromSeconds(90));
        if (start.ExitCode != 0)
        {
            cluster.Dispose();
            Assert.Fail($"the one-node Slurm cluster did not start (exit {start.ExitCode}): {start.Stderr.Trim()}");
        }
        return cluster;
    }

    /// <summary>A Slurm client (sbatch, squeue, scontrol) against this cluster.</summary>
    public ProcessRunner.Result Run(string client, params string[] arguments) =>
        ProcessRunner.Run(client, arguments, TimeSpan.FromSeconds(60), environment: new Dictionary<string, string> { ["SLURM_CONF"] = Conf });

    public void Dispose()
    {
        ProcessRunner.Run("bash", [Script, "stop", _folder], TimeSpan.FromSeconds(30));
        try
        {
            Directory.Delete(_folder, recursive: true);
        }
        catch (IOException)
        {
            // A daemon still closing its log: the temp folder is left, the daemons are gone.
        }
    }
}
