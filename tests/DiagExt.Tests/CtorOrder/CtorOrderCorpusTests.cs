using System.Diagnostics;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.CtorOrder;

/// <summary>
/// "ctororder --assembly" over every target framework of 17 real packages restored from NuGet, scored against
/// CorpusGroundTruth.tsv (each constructor-selecting method read in the decompiled code). A site is a method:
/// the same method in several target frameworks, or picking twice, counts once. Flagged means a warning or a hazard:
/// a pick reported as information (a type only its library knows) is not one. The floors are issue 15's targets.
/// </summary>
[TestFixture]
[Category(TestKind.RealPrograms)]
public partial class CtorOrderCorpusTests
{
    private const double PrecisionFloor = 0.90, RecallFloor = 0.80;

    private static readonly (string Id, string Version)[] Corpus =
    [
        ("Autofac", "9.3.3"), ("SimpleInjector", "4.9.1"), ("Microsoft.Extensions.DependencyInjection", "11.0.0"),
        ("LightInject", "7.1.1"), ("Grace", "7.1.1"),
        // 33.1.0, not 34: 34 rewrote object creation without reflection (no site left to score).
        ("CsvHelper", "33.1.0"), ("Newtonsoft.Json", "13.0.4"), ("YamlDotNet", "18.1.0"), ("MessagePack", "2.5.307"),
        ("protobuf-net", "3.4.40"), ("Moq", "4.21.0"), ("NSubstitute", "6.1.0"), ("AutoFixture", "4.18.1"),
        ("Castle.Core", "5.2.1"), ("Dapper", "2.1.86"), ("Mapster", "10.0.14"),
        // Added after the scanner's rules were written, as a check on code they were not made for.
        ("NUnit", "4.6.1"),
    ];

    /// <summary>Packages whose assemblies are scanned beside the corpus (dependencies that hold sites of their own).</summary>
    private static readonly (string Id, string Version)[] Dependencies =
    [
        ("Microsoft.Extensions.DependencyInjection.Abstractions", "11.0.0"), ("protobuf-net.Core", "3.4.40"), ("Mapster.Core", "10.0.14"),
    ];

    private sealed record Truth(string Package, string Site, bool Hazard, string Why);

    [Test]
    public void Precision_and_recall_over_real_packages()
    {
        string cache = NuGetPackages.Restore("ctororder-corpus", Corpus);
        Dictionary<string, Truth> truth = ReadTruth();
        var flagged = new Dictionary<string, HashSet<string>>();
        var clock = Stopwatch.StartNew();
        int assemblies = 0;
        foreach (var (id, version) in Corpus.Concat(Dependencies))
        {
            string lib = Path.Combine(cache, id.ToLowerInvariant(), version, "lib");
            assemblies += Directory.GetFiles(lib, "*.dll", SearchOption.AllDirectories).Length;
            Diagext.Result result = Diagext.Run("ctororder", "--assembly", lib, "--json");
            Assert.That(result.ExitCode, Is.AnyOf(0, 1), $"{id}: {result.Stderr}");
            flagged[id] = result.Findings
                .Where(f => f.GetProperty("severity").GetString() is "warning" or "hazard")
                .Select(f => Site(f.GetProperty("callSite"))).ToHashSet();
        }
        clock.Stop();

        var table = new StringBuilder($"{"package",-54} {"sites",5} {"flagged",7} {"TP",3} {"FP",3} {"FN",3}\n");
        int tp = 0, fp = 0, fn = 0;
        var wrong = new List<string>();
        foreach (string package in flagged.Keys.OrderBy(p => p, StringComparer.Ordinal))
        {
            Truth[] rows = truth.Values.Where(t => t.Package == package).ToArray();
            HashSet<string> hazards = rows.Where(t => t.Hazard).Select(t => t.Site).ToHashSet();
            HashSet<string> mine = flagged[package];
            int pTp = mine.Count(hazards.Contains), pFp = mine.Count - pTp, pFn = hazards.Count(h => !mine.Contains(h));
            wrong.AddRange(mine.Where(s => !hazards.Contains(s)).Select(s => $"FP {package} {s}: {(truth.TryGetValue(s, out Truth? t) ? t.Why : "not in the ground truth")}"));
            wrong.AddRange(hazards.Where(h => !mine.Contains(h)).Select(h => $"FN {package} {h}: {truth[h].Why}"));
            table.AppendLine($"{package,-54} {rows.Length,5} {mine.Count,7} {pTp,3} {pFp,3} {pFn,3}");
            (tp, fp, fn) = (tp + pTp, fp + pFp, fn + pFn);
        }
        double precision = tp + fp == 0 ? 1 : (double)tp / (tp + fp), recall = tp + fn == 0 ? 1 : (double)tp / (tp + fn);
        table.AppendLine($"{"total",-54} {truth.Count,5} {tp + fp,7} {tp,3} {fp,3} {fn,3}");
        table.AppendLine($"precision {precision:P0}, recall {recall:P0}; {assemblies} assemblies in {clock.Elapsed.TotalSeconds:F1} s");
        string report = table + string.Join("\n", wrong);
        File.WriteAllText(Path.Combine(Repo.WorkDirectory, "ctororder-corpus.txt"), report);
        TestContext.Out.WriteLine(report);

        Assert.That(precision, Is.GreaterThanOrEqualTo(PrecisionFloor), report);
        Assert.That(recall, Is.GreaterThanOrEqualTo(RecallFloor), report);
    }

    private static Dictionary<string, Truth> ReadTruth()
    {
        string path = Path.Combine(Repo.Root, "tests", "DiagExt.Tests", "CtorOrder", "CorpusGroundTruth.tsv");
        var truth = new Dictionary<string, Truth>();
        foreach (string line in File.ReadLines(path).Where(l => l.Length > 0 && l[0] != '#'))
        {
            string[] f = line.Split('\t');
            Assert.That(f, Has.Length.EqualTo(5), line);
            Assert.That(f[3], Is.AnyOf("hazard", "safe"), line);
            var row = new Truth(f[0], $"{f[1]}.{f[2]}", f[3] == "hazard", f[4]);
            Assert.That(truth.TryAdd(row.Site, row), Is.True, $"listed twice: {line}");
        }
        return truth;
    }

    /// <summary>Type.Method of a finding; a lambda or local function counts as the method that holds it.</summary>
    private static string Site(JsonElement callSite)
    {
        string display = callSite.GetProperty("method").GetString()!;
        string head = display[..display.IndexOf('(')];
        Match lambda = LambdaName().Match(head);
        return lambda.Success ? $"{lambda.Groups[1].Value}.{lambda.Groups[2].Value}" : head;
    }

    [GeneratedRegex(@"^(.*?)[+./]<>c(?:__DisplayClass[\w]*)?\.<([^>]+)>")]
    private static partial Regex LambdaName();
}
