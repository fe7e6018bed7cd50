using System.Diagnostics;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.CtorOrder;

/// <summary>
/// Scores "ctororder --assembly" over restored packages against a ground-truth file (one row per constructor-selecting
/// method: package, type, method, hazard|safe, why). A site is a method: the same method in several target frameworks,
/// or picking twice, counts once; a lambda, local function, iterator or async body counts as the method it is written
/// in. Flagged means a warning or a hazard: a pick reported as information (a type only its library knows) is not one.
/// </summary>
public static partial class CorpusScore
{
    public sealed record Truth(string Package, string Site, bool Hazard, string Why);

    /// <summary>A package to scan: its ground-truth name, and the restored folder (lower-case id/version) whose lib/ is scanned.</summary>
    public sealed record Package(string Name, string Folder);

    public sealed record Outcome(double Precision, double Recall, int Sites, int Flagged, int Tp, int Fp, int Fn, int Assemblies, TimeSpan Elapsed, string Report);

    public static Outcome Score(string truthFile, IEnumerable<Package> packages, string reportName)
    {
        Dictionary<string, Truth> truth = ReadTruth(truthFile);
        var flagged = new Dictionary<string, HashSet<string>>();
        var clock = Stopwatch.StartNew();
        int assemblies = 0;
        foreach (Package package in packages)
        {
            string lib = Path.Combine(package.Folder, "lib");
            Assert.That(Directory.Exists(lib), Is.True, $"{package.Name}: {lib} was not restored");
            assemblies += Directory.GetFiles(lib, "*.dll", SearchOption.AllDirectories).Length;
            Diagext.Result result = Diagext.Run("ctororder", "--assembly", lib, "--json");
            Assert.That(result.ExitCode, Is.AnyOf(0, 1), $"{package.Name}: {result.Stderr}");
            flagged[package.Name] = result.Findings
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
        File.WriteAllText(Path.Combine(Repo.WorkDirectory, reportName), report);
        TestContext.Out.WriteLine(report);
        return new Outcome(precision, recall, truth.Count, tp + fp, tp, fp, fn, assemblies, clock.Elapsed, report);
    }

    private static Dictionary<string, Truth> ReadTruth(string file)
    {
        string path = Path.Combine(Repo.Root, "tests", "DiagExt.Tests", "CtorOrder", file);
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

    /// <summary>
    /// Type.Method of a finding. Compiler-generated bodies count as the method they are written in: a lambda
    /// ("T+&lt;&gt;c.&lt;M&gt;b__0_0", "T+&lt;&gt;c__DisplayClass3_0.&lt;M&gt;b__1"), a local function ("T.&lt;M&gt;g__Local|3_0"),
    /// an iterator or async state machine ("T+&lt;M&gt;d__7.MoveNext").
    /// </summary>
    public static string Site(JsonElement callSite)
    {
        string display = callSite.GetProperty("method").GetString()!;
        string head = display[..display.IndexOf('(')];
        if (Lambda().Match(head) is { Success: true } lambda)
            return $"{lambda.Groups[1].Value}.{lambda.Groups[2].Value}";
        if (StateMachine().Match(head) is { Success: true } machine)
            return $"{machine.Groups[1].Value}.{machine.Groups[2].Value}";
        if (LocalFunction().Match(head) is { Success: true } local)
            return $"{local.Groups[1].Value}.{local.Groups[2].Value}";
        return head;
    }

    [GeneratedRegex(@"^(.*?)[+./]<>c(?:__DisplayClass[\w]*)?\.<([^>]+)>")]
    private static partial Regex Lambda();

    [GeneratedRegex(@"^(.*?)\+<([^>]+)>d__\d+\.MoveNext$")]
    private static partial Regex StateMachine();

    [GeneratedRegex(@"^(.*?)\.<([^>]+)>g__")]
    private static partial Regex LocalFunction();
}
