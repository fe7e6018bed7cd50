using DiagExt.Core.Targets;
using System.Reflection.Metadata;
using DiagExt.Core.Analysis;
using DiagExt.Core.Heap;
using DiagExt.Core.Il;
using DiagExt.Core.Reports;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// Code that depends on the order of Type.GetConstructors(), in a dump or live process: scans the IL of
/// every loaded module for positional picks, reads the order reflection actually returned for each type
/// from its RuntimeTypeCache, compares it with declaration order, and joins the two.
/// </summary>
public sealed class CtorOrderDetector : IDetector, IFileScan
{
    public const string CommandName = "ctororder";

    public const int MaxModules = 20_000;

    private readonly ReflectionCacheInterest _interest = new();

    public string Name => CommandName;

    public string Description => "code that takes GetConstructors()[0] / First(), and types whose constructor order differs at run time";

    public string Explanation =>
        "Scans the IL of every module loaded in the target for code that takes a constructor by its position in the list " +
        "Type.GetConstructors() / TypeInfo.DeclaredConstructors returns ([0], First, FirstOrDefault, ElementAt(0), MaxBy/MinBy/Aggregate, an OrderBy whose key can tie, then First; a loop that keeps or returns the first constructor that matches; a predicate that can match several); " +
        "Single(), a Length == 1 guard and picking by parameter types are not reported. It then reads, for every type whose constructors reflection has listed, " +
        "the order reflection keeps them in (RuntimeTypeCache.m_constructorInfoCache) and compares it with declaration order. " +
        "A call site plus a type it is applied to (named in the code, or defined in an assembly that uses the call site's) whose first constructor differs is a hazard; " +
        "a call site alone is a warning; an order difference alone, and the orders observed, are information (they do not set exit code 1).";

    public string FileScanExplanation =>
        "A scan of files involves no process: a call site found is a warning, since only a process shows whether a type's " +
        "constructor order differs; a hazard when the code names a type with several matching constructors; information when the type is " +
        "one only its library knows (built with TypeBuilder, a wrapper fixed by convention). Exit code 1 when any warning or hazard is found " +
        "(this is the check to run in CI before a runtime update), 0 when none, 2 when a path matches nothing or no input is an assembly. " +
        "Unreadable or malformed assemblies are named in one note line and do not stop the scan." + Environment.NewLine + Environment.NewLine +
        "A site reviewed as safe stays quiet: list it in a baseline file (a file of every site found, written once and read on each scan " +
        "after), or mark the method, its type or the assembly with [UnconditionalSuppressMessage(\"DiagExt\", \"CtorOrder\", " +
        "Justification = \"...\")] (SuppressMessage works too, but the compiler keeps it only where CODE_ANALYSIS is defined).";

    public AnalysisReport ScanFiles(IReadOnlyList<string> patterns, FileScanBaseline baseline, CancellationToken cancellation) =>
        StaticCtorOrderScan.Run(patterns, new StaticCtorOrderScan.BaselineOptions(baseline.Read, baseline.Write), cancellation);

    public DetectorNeeds Needs => DetectorNeeds.ManagedRuntime;

    public IHeapInterest HeapInterest => _interest;

    public FindingContract Contract { get; } = new(CommandName, typeof(CtorOrderFinding), CtorOrderJson.Default);

    public IReadOnlyList<Finding> Analyze(AnalysisContext context)
    {
        ClrRuntime runtime = context.Target.Runtime!;
        using var images = new LoadedModuleImages(context.Target);
        string? runtimeDirectory = RuntimeDirectory(runtime);
        ClrModule[] modules = runtime.EnumerateModules().DistinctBy(m => m.Address).Take(MaxModules).ToArray();
        var sitesOf = new List<CallSite>?[modules.Length];
        void ScanModules(bool runtimeOwn)
        {
            for (int i = 0; i < modules.Length; i++)
            {
                context.Cancellation.ThrowIfCancellationRequested();
                if (IsUnder(modules[i].Name, runtimeDirectory) != runtimeOwn || images.For(modules[i]) is not { } image)
                    continue;
                CallSiteScan scan = CallSiteScanner.Scan(image, context.Cancellation);
                images.Problems.AddRange(scan.Problems);
                sitesOf[i] = [.. scan.Sites];
            }
        }

        // The application's modules first, while the heap pass runs; the runtime's own libraries only when this process
        // shows a type reordered: their sites are reported for no other type (below), and unread, CoreLib's 16 MB image
        // stays out of memory.
        ScanModules(runtimeOwn: false);
        LoadedTypeOrders.Result orders = LoadedTypeOrders.Read(context, _interest, images);
        if (orders.Types.Any(t => t.Order.FirstDiffers))
            ScanModules(runtimeOwn: true);
        var sites = modules.SelectMany((m, i) => (sitesOf[i] ?? []).Select(s => (Site: s, Module: m))).ToList();
        var findings = new List<Finding>();
        var linked = new HashSet<TypeCtorOrder>();
        foreach ((CallSite site, ClrModule module) in sites)
        {
            List<TypeCtorOrder> reordered = orders.Types
                .Where(t => t.Order.FirstDiffers && AppliesTo(site, t.Order, t.Module, images))
                .Select(t => t.Order)
                .ToList();
            // The runtime's own libraries have a few such picks on fixed types (CoreLib's MarshalAsAttribute):
            // they are the runtime's business unless this process shows one of their types reordered.
            if (reordered.Count == 0 && IsUnder(module.Name, runtimeDirectory))
                continue;
            linked.UnionWith(reordered);
            // A process shows the order itself: a named type's constructor count is no proof here, the observed order is;
            // and a type built at run time is in the process too, so "only its library knows" does not hold.
            findings.Add(CtorOrderFindingBuilder.ForCallSite(site with { NamedTypeConstructors = null, TypeUnknown = null }, reordered));
        }
        foreach ((TypeCtorOrder order, _) in orders.Types.Where(t => t.Order.FirstDiffers && !linked.Contains(t.Order)))
            findings.Add(CtorOrderFindingBuilder.ForType(order));
        findings.AddRange(ObservedOrders.Summarize(orders, images.Problems));
        return findings;
    }

    private static string? RuntimeDirectory(ClrRuntime runtime) =>
        runtime.BaseClassLibrary?.Name is { } coreLib ? Path.GetDirectoryName(coreLib) : null;

    private static bool IsUnder(string? file, string? directory) =>
        file is not null && directory is not null && string.Equals(Path.GetDirectoryName(file), directory, StringComparison.Ordinal);

    /// <summary>
    /// Whether a call site can be applied to a type: the code names it, or the type's assembly is the call
    /// site's or references it (the app registers its types with a container it uses).
    /// </summary>
    private static bool AppliesTo(CallSite site, TypeCtorOrder type, ClrModule typeModule, LoadedModuleImages images)
    {
        if (site.AppliedTo is { } named)
            return named == type.Type;
        if (type.Module == site.Assembly)
            return true;
        if (images.MetadataFor(typeModule) is not { } md)
            return false;
        return md.AssemblyReferences.Any(r => md.GetString(md.GetAssemblyReference(r).Name) == site.Assembly);
    }
}
