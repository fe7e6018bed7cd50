using System.Diagnostics;
using DiagExt.Core.Analysis;
using DiagExt.Core.Errors;
using DiagExt.Core.Il;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// "ctororder --assembly": scans assembly files and NuGet packages, no process involved. A call site is a warning
/// (a runtime order is only observable in a process), a hazard when the code names a type with several matching
/// constructors, information when the type is one only its library knows; the report looks like any other.
/// Sites in <see cref="BaselineOptions.Read"/> are left out; <see cref="BaselineOptions.Write"/> records every site found.
/// </summary>
public static class StaticCtorOrderScan
{
    /// <summary>Types named in the note of picks left alone by their constructor count: a framework scan leaves hundreds.</summary>
    private const int MaxTypesNamed = 10;

    /// <summary>A baseline file to read reviewed sites from, and/or one to write every site found to.</summary>
    public sealed record BaselineOptions(string? Read, string? Write);

    public static AnalysisReport Run(IReadOnlyList<string> patterns, CancellationToken cancellation = default) => Run(patterns, new BaselineOptions(null, null), cancellation);

    public static AnalysisReport Run(IReadOnlyList<string> patterns, BaselineOptions baseline, CancellationToken cancellation = default)
    {
        // Read first: a missing baseline is a usage error before any scanning.
        HashSet<string>? reviewed = baseline.Read is { } readPath ? CtorOrderBaseline.Read(readPath) : null;
        var watch = Stopwatch.StartNew();
        IReadOnlyList<string> files = AssemblyFiles.Expand(patterns);
        if (files.Count == 0)
            throw new DiagExtException($"{string.Join(" ", patterns)}: matches no .dll, .exe or .nupkg");

        CallSiteScan scan = CallSiteScan.Empty;
        var notManaged = new List<string>();
        var problems = new List<string>();
        foreach (string file in files)
        {
            cancellation.ThrowIfCancellationRequested();
            AssemblySources.Opened opened = AssemblySources.Open(file);
            notManaged.AddRange(opened.NotManaged);
            problems.AddRange(opened.Problems);
            foreach (AssemblyImage image in opened.Images)
            {
                using (image)
                    scan = scan.Add(CallSiteScanner.Scan(image, cancellation));
            }
        }
        problems.AddRange(scan.Problems);
        if (scan.Assemblies == 0)
            throw new DiagExtException($"{Describe(patterns)}: no managed assembly among {files.Count:N0} files{(notManaged.Count > 0 ? $" (not managed: {Names(notManaged)})" : "")}{(problems.Count > 0 ? $" ({Names(problems)})" : "")}");

        List<CallSite> sites = OnePerSite(scan.Sites).ToList();
        int written = baseline.Write is { } writePath ? CtorOrderBaseline.Write(writePath, sites) : 0;
        int known = reviewed is null ? 0 : sites.RemoveAll(s => reviewed.Contains(CtorOrderBaseline.Key(s)));
        IReadOnlyList<Finding> findings = sites.Select(s => (Finding)CtorOrderFindingBuilder.ForCallSite(s, [])).ToList();
        var notes = new List<string>();
        if (notManaged.Count > 0)
            notes.Add($"skipped (not managed): {Names(notManaged)}");
        if (problems.Count > 0)
            notes.Add($"{problems.Count} unreadable: {Names(problems)}");
        if (scan.Suppressed > 0)
            notes.Add($"{scan.Suppressed} pick(s) marked reviewed in the code ([UnconditionalSuppressMessage(\"{SuppressionAttributes.Category}\", \"{SuppressionAttributes.CheckId}\")] or SuppressMessage) not reported");
        if (scan.LeftByCount.Count > 0)
        {
            // Said so a reader sees why a pick they know of is missing: the count, not a blind spot.
            var types = scan.LeftByCount.Distinct().Order(StringComparer.Ordinal).ToList();
            notes.Add($"{scan.LeftByCount.Count} pick(s) not reported because the type the code shows has one matching constructor: " +
                string.Join(", ", types.Take(MaxTypesNamed)) + (types.Count > MaxTypesNamed ? $" and {types.Count - MaxTypesNamed} more" : ""));
        }
        if (reviewed is not null)
            notes.Add($"{known} site(s) listed in the baseline {baseline.Read} not reported");
        if (baseline.Write is not null)
            notes.Add($"{written} site(s) written to the baseline {baseline.Write}");
        string? note = notes.Count == 0 ? null : string.Join("; ", notes);
        var summary = new AssemblyScanSummary(Describe(patterns), files.Count, scan.Assemblies, notManaged.Count, scan.MethodsAnalysed);
        var outcome = new DetectorOutcome(CtorOrderDetector.CommandName, DetectorStatus.Ran, note, findings, watch.Elapsed);
        return new AnalysisReport(summary, [outcome], null, watch.Elapsed);
    }

    /// <summary>
    /// One finding per pick: the same assembly under several target frameworks (lib/net8.0, lib/netstandard2.0...)
    /// holds the same method with the same pattern; it is reported once, naming the other files.
    /// </summary>
    private static IEnumerable<CallSite> OnePerSite(IReadOnlyList<CallSite> sites) =>
        sites.GroupBy(s => (s.Assembly, s.Method, s.Pattern)).Select(g =>
        {
            string[] others = g.Select(s => s.AssemblyPath).Distinct().Where(p => p != g.First().AssemblyPath).ToArray();
            return others.Length == 0 ? g.First() : g.First() with { AlsoIn = others };
        });

    private static string Names(IReadOnlyList<string> names) =>
        names.Count <= 5 ? string.Join(", ", names) : $"{string.Join(", ", names.Take(5))} and {names.Count - 5} more";

    private static string Describe(IReadOnlyList<string> patterns) => patterns.Count <= 3 ? string.Join(" ", patterns) : $"{string.Join(" ", patterns.Take(3))} ...";
}
