namespace DiagExt.Tests.RealPrograms;

/// <summary>
/// The shared .NET runtime a live process runs on, read from its memory maps (where libcoreclr.so is loaded from).
/// A program we did not build picks its runtime itself (apphost, roll-forward), so its dump is written with the
/// createdump beside that runtime, not assumed to be the one the tests run on.
/// </summary>
public sealed record ProcessRuntime(string Directory)
{
    public string CreateDump => Path.Combine(Directory, "createdump");

    /// <summary>The runtime's version: the name of its folder under shared/Microsoft.NETCore.App.</summary>
    public string Version => Path.GetFileName(Directory);

    public static ProcessRuntime Of(int pid)
    {
        string? coreclr = File.ReadLines($"/proc/{pid}/maps")
            .Select(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries))
            .Where(fields => fields.Length >= 6 && fields[5].EndsWith("/libcoreclr.so", StringComparison.Ordinal))
            .Select(fields => fields[5])
            .FirstOrDefault();
        Assert.That(coreclr, Is.Not.Null, $"process {pid} has no libcoreclr.so mapped: not a .NET process, or not yet started");
        return new ProcessRuntime(Path.GetDirectoryName(coreclr)!);
    }
}
