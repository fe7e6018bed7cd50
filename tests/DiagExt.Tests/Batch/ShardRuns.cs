using System.Text.Json;
using System.Text.Json.Nodes;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Batch;

/// <summary>
/// What the sharding tests share: the single-machine batch of <see cref="BatchFolder"/> they compare with (run once),
/// and "identical, timings aside" as scripts/compare-json.sh means it, plus the other measurements a batch report
/// holds (a dump's analysisMs and its process's peakMemoryMb).
/// </summary>
public static class ShardRuns
{
    /// <summary>The batch's own settings every run of these tests uses, so "jobs" is the same on both sides.</summary>
    public static readonly string[] Settings = ["-j", "2", "--quiet"];

    private static readonly Lazy<string> Single = new(() => RunSingle(BatchFolder.Path, Path.Combine(Folder("single"), "batch.json")), LazyThreadSafetyMode.ExecutionAndPublication);

    /// <summary>The JSON file of 'diagext analyze BATCHFOLDER' on one machine.</summary>
    public static string SingleBatchOfBatchFolder => Single.Value;

    private static readonly string[] Timings = ["elapsedMs", "analysisMs", "peakMemoryMb", "startup"];

    public static string Folder(string name)
    {
        string folder = Path.Combine(Repo.WorkDirectory, "shards", name);
        if (Directory.Exists(folder))
            Directory.Delete(folder, recursive: true);
        Directory.CreateDirectory(folder);
        return folder;
    }

    public static string RunSingle(string input, string json)
    {
        Diagext.Result run = Diagext.Run(["analyze", input, "--json", json, .. Settings]);
        Assert.That(File.Exists(json), $"the single batch wrote no report (exit {run.ExitCode}): {run.Stderr}");
        return json;
    }

    /// <summary>A batch report's JSON without what measures time or memory, indented one way: equal means identical timings aside.</summary>
    public static string Comparable(string jsonFile)
    {
        JsonNode root = JsonNode.Parse(File.ReadAllText(jsonFile))!;
        Strip(root);
        return root.ToJsonString(new JsonSerializerOptions { WriteIndented = true });
    }

    private static void Strip(JsonNode? node)
    {
        switch (node)
        {
            case JsonObject o:
                foreach (string name in Timings)
                    o.Remove(name);
                foreach (var (_, value) in o.ToList())
                    Strip(value);
                break;
            case JsonArray a:
                foreach (JsonNode? item in a)
                    Strip(item);
                break;
        }
    }
}
