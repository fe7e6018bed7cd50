namespace DiagExt.Tests.Infrastructure;

/// <summary>Paths in the repository and the work folders tests share.</summary>
public static class Repo
{
    public static string Root { get; } = FindRoot();

    /// <summary>
    /// The team's real Windows dumps (read-only, outside the repository): shared/ beside the clone (CI), or beside
    /// the folder that holds it (a worktree under wt/).
    /// </summary>
    public static string SharedWindowsDumps { get; } = FindShared(Path.Combine("shared", "dumps", "windows-native"));

    /// <summary>Only this team's machines have them: a contributor's lone clone runs without.</summary>
    public static bool HasSharedDumps => Directory.Exists(SharedWindowsDumps);

    /// <summary>The one reason every test that needs the shared dumps gives when it skips.</summary>
    public static string NoSharedDumps =>
        $"needs the team's Windows dumps in {SharedWindowsDumps}: not beside this clone (nor beside the folder holding it)";

    /// <summary>
    /// Skips the calling test when the shared dumps are missing; called from a [OneTimeSetUp], the whole fixture.
    /// </summary>
    public static void RequireSharedDumps()
    {
        if (!HasSharedDumps)
            Assert.Ignore(NoSharedDumps);
    }

    /// <summary>The path of one shared dump, skipping the calling test when they are missing.</summary>
    public static string SharedDump(string name)
    {
        RequireSharedDumps();
        return Path.Combine(SharedWindowsDumps, name);
    }

    /// <summary>Where tests build samples and write dumps; under artifacts/ so a clean clone starts empty.</summary>
    public static string WorkDirectory
    {
        get
        {
            string dir = Path.Combine(Root, "artifacts", "test-work");
            Directory.CreateDirectory(dir);
            return dir;
        }
    }

    public static string Sample(string name) => Path.Combine(Root, "samples", name);

    private static string FindShared(string relative)
    {
        string near = Path.GetFullPath(Path.Combine(Root, "..", relative));
        string further = Path.GetFullPath(Path.Combine(Root, "..", "..", relative));
        return Directory.Exists(near) || !Directory.Exists(further) ? near : further;
    }

    private static string FindRoot()
    {
        for (string? dir = AppContext.BaseDirectory; dir is not null; dir = Path.GetDirectoryName(dir))
            if (File.Exists(Path.Combine(dir, "DiagExt.sln")))
                return dir;
        throw new InvalidOperationException("DiagExt.sln not found above " + AppContext.BaseDirectory);
    }
}
