namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// Real packages restored from NuGet by the test through a throwaway project (nothing committed), into a
/// folder per set under the work directory: the second restore of the same set is a no-op.
/// </summary>
public static class NuGetPackages
{
    private static readonly Dictionary<string, string> Restored = [];

    /// <summary>Restores <paramref name="packages"/> (id, version) and returns the packages folder (lower-case id/version/lib/...).</summary>
    public static string Restore(string setName, IEnumerable<(string Id, string Version)> packages)
    {
        lock (Restored)
        {
            if (Restored.TryGetValue(setName, out string? done))
                return done;
            string dir = Path.Combine(Repo.WorkDirectory, setName);
            Directory.CreateDirectory(dir);
            string references = string.Join("\n", packages.Select(p => $"    <PackageReference Include=\"{p.Id}\" Version=\"{p.Version}\" />"));
            // NuGetAudit off: the packages are read as data, never run; NU1603 (a dependency's next version) is not an error.
            File.WriteAllText(Path.Combine(dir, "Restore.csproj"), $"""
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup>
                    <TargetFramework>net10.0</TargetFramework>
                    <ManagePackageVersionsCentrally>false</ManagePackageVersionsCentrally>
                    <NuGetAudit>false</NuGetAudit>
                    <WarningsNotAsErrors>NU1603</WarningsNotAsErrors>
                  </PropertyGroup>
                  <ItemGroup>
                {references}
                  </ItemGroup>
                </Project>
                """);
            // An empty Directory.Build.props/.packages.props here keeps the repository's settings out of this project.
            File.WriteAllText(Path.Combine(dir, "Directory.Build.props"), "<Project />");
            File.WriteAllText(Path.Combine(dir, "Directory.Packages.props"), "<Project />");
            string cache = Path.Combine(dir, "cache");
            ProcessRunner.Result restore = ProcessRunner.Run("dotnet", ["restore", dir, "--packages", cache, "--nologo"], TimeSpan.FromMinutes(5));
            if (restore.ExitCode != 0)
                throw new InvalidOperationException($"restoring the packages failed:\n{restore.Stdout}\n{restore.Stderr}");
            return Restored[setName] = cache;
        }
    }
}
