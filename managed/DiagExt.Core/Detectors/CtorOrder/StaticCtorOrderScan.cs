using System.Diagnostics;
using DiagExt.Core.Analysis;
using DiagExt.Core.Errors;
using DiagExt.Core.Findings;
using DiagExt.Core.Il;
using DiagExt.Core.Targets;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// "ctororder --assembly": scans assembly files and NuGet packages, no process involved. Every call site is
/// a warning (a runtime order is only observable in a process); the report looks like any other.
/// </summary>
public static class StaticCtorOrderScan
{
    public static AnalysisReport Run(IReadOnlyList<string> patterns, CancellationToken cancellation = default)
    {
        var watch = Stopwatch.StartNew();
        IReadOnlyList<string> files = AssemblyFiles.Expand(patterns);
        if (files.Count == 0)
            throw new DiagExtException($"{string.Join(" ", patterns)}: matches no .dll, .exe or .nupkg");

        CallSiteScan scan = CallSiteScan.Empty;
        int notManaged = 0;
        var problems = new List<string>();
        foreach (string file in files)
        {
            cancellation.ThrowIfCancellationRequested();
            AssemblySources.Opened opened = AssemblySources.Open(file);
            notManaged += opened.NotManaged;
            problems.AddRange(opened.Problems);
            foreach (AssemblyImage image in opened.Images)
            {
                using (image)
                    scan = scan.Add(CallSiteScanner.Scan(image, cancellation));
            }
        }
        problems.AddRange(scan.Problems);

        IReadOnlyList<Finding> findings = scan.Sites.Select(s => (Finding)CtorOrderFindingBuilder.ForCallSite(s, [])).ToList();
        string name = $"{scan.Assemblies:N0} assemblies scanned from {files.Count:N0} files ({Describe(patterns)}){(notManaged > 0 ? $", {notManaged:N0} native files skipped" : "")}, {scan.MethodsAnalysed:N0} methods analysed";
        string? note = problems.Count == 0 ? null : $"{problems.Count} unreadable: {string.Join("; ", problems.Take(5))}{(problems.Count > 5 ? "; ..." : "")}";
        var summary = new TargetSummary(name, TargetKind.Assemblies, "", "", null, 0, RuntimeStatus.NotPresent, null, null);
        var outcome = new DetectorOutcome(CtorOrderDetector.CommandName, DetectorStatus.Ran, note, findings, watch.Elapsed);
        return new AnalysisReport(summary, [outcome], null, watch.Elapsed);
    }

    private static string Describe(IReadOnlyList<string> patterns) => patterns.Count <= 3 ? string.Join(" ", patterns) : $"{string.Join(" ", patterns.Take(3))} ...";
}
