using DiagExt.Tests.Infrastructure;
using ArchUnitNET.Domain;
using ArchUnitNET.Domain.Dependencies;
using ArchUnitNET.Loader;
using DiagExt.Cli;
using DiagExt.Core.Analysis;

namespace DiagExt.Tests.Architecture;

/// <summary>
/// The layers as docs/design/architecture.md draws them, checked on the compiled IL (signatures and method bodies, through
/// ArchUnitNET): a type may use only the layers its own layer points at. A new arrow fails here with the types that
/// make it, so it is a decision (change <see cref="Allowed"/> and the drawing together), not an accident.
/// </summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class LayeringTests
{
    /// <summary>Layer -> the layers it may use (besides itself). "Core" is the root namespace: shared vocabulary.</summary>
    public static readonly IReadOnlyDictionary<string, string[]> Allowed = new Dictionary<string, string[]>
    {
        ["Errors"] = [],
        ["Core"] = ["Errors"],
        ["Native"] = ["Core", "Errors"],
        ["Il"] = ["Core", "Errors"],
        // A target's loaded modules as IL images (LoadedModuleImages) are read with Il.
        ["Targets"] = ["Core", "Errors", "Native", "Il"],
        ["Heap"] = ["Core", "Errors", "Targets", "Native"],
        ["Reports"] = ["Core", "Errors"],
        ["Rendering"] = ["Core", "Errors", "Reports"],
        // The detector contract (IDetector, AnalysisContext) and the analysis that runs detectors it is given.
        ["Analysis"] = ["Core", "Errors", "Heap", "Targets", "Reports"],
        ["Detectors"] = ["Core", "Errors", "Analysis", "Targets", "Heap", "Il", "Native", "Reports"],
        // The one list of detectors: the only place that names them.
        ["Catalog"] = ["Core", "Errors", "Analysis", "Detectors", "Reports"],
        ["Cli"] = ["Core", "Errors", "Catalog", "Analysis", "Targets", "Rendering", "Reports"],
    };

    private static readonly Lazy<ArchUnitNET.Domain.Architecture> Code = new(() =>
        new ArchLoader().LoadAssemblies(typeof(Analyzer).Assembly, typeof(CommandLineApp).Assembly).Build());

    [Test]
    public void Every_dependency_follows_an_arrow_of_the_drawing()
    {
        var violations = new SortedSet<string>(StringComparer.Ordinal);
        foreach (IType type in Code.Value.Types)
        {
            if (Layer(type) is not { } from)
                continue;
            foreach (ITypeDependency dependency in type.Dependencies)
            {
                if (Layer(dependency.Target) is not { } to || to == from)
                    continue;
                if (!Allowed[from].Contains(to))
                    violations.Add($"{from} -> {to}: {type.FullName} uses {dependency.Target.FullName}");
            }
        }
        Assert.That(violations, Is.Empty, string.Join('\n', violations));
        // The scan sees real arrows (method bodies included), so an empty list above means something.
        Assert.That(Arrows(), Does.Contain("Cli -> Catalog").And.Contain("Detectors -> Heap").And.Contain("Analysis -> Targets"));
    }

    private static HashSet<string> Arrows() =>
        Code.Value.Types.SelectMany(t => t.Dependencies.Select(d => (From: Layer(t), To: Layer(d.Target))))
            .Where(a => a.From is not null && a.To is not null && a.From != a.To).Select(a => $"{a.From} -> {a.To}").ToHashSet();

    [Test]
    public void A_detector_uses_no_other_detectors_folder()
    {
        var violations = new SortedSet<string>(StringComparer.Ordinal);
        foreach (IType type in Code.Value.Types)
        {
            if (DetectorFolder(type) is not { } own)
                continue;
            foreach (ITypeDependency dependency in type.Dependencies)
                if (DetectorFolder(dependency.Target) is { } other && other != own)
                    violations.Add($"{type.FullName} uses {dependency.Target.FullName}");
        }
        Assert.That(violations, Is.Empty, string.Join('\n', violations));
    }

    [Test]
    public void The_drawing_has_no_cycle_and_names_every_layer_the_code_has()
    {
        string[] layers = Code.Value.Types.Select(Layer).OfType<string>().Distinct().ToArray();
        Assert.That(Allowed.Keys, Is.SupersetOf(layers));
        foreach (string layer in Allowed.Keys)
            Assert.That(Reaches(layer, layer, []), Is.False, $"{layer} reaches itself");
    }

    private static bool Reaches(string from, string to, HashSet<string> seen) =>
        Allowed[from].Any(next => next == to || (seen.Add(next) && Reaches(next, to, seen)));

    /// <summary>"Targets" for DiagExt.Core.Targets.Live, "Core" for DiagExt.Core, "Cli" for DiagExt.Cli.*; null outside ours.</summary>
    private static string? Layer(IType? type)
    {
        // Generic parameters and some compiler-made types have no namespace: they are no layer's.
        if (type?.Namespace?.FullName is not { } ns)
            return null;
        if (ns == "DiagExt.Cli" || ns.StartsWith("DiagExt.Cli.", StringComparison.Ordinal))
            return "Cli";
        if (ns == "DiagExt.Core")
            return "Core";
        return ns.StartsWith("DiagExt.Core.", StringComparison.Ordinal) ? ns["DiagExt.Core.".Length..].Split('.')[0] : null;
    }

    private static string? DetectorFolder(IType? type)
    {
        const string prefix = "DiagExt.Core.Detectors.";
        if (type?.Namespace?.FullName is not { } ns)
            return null;
        return ns.StartsWith(prefix, StringComparison.Ordinal) ? ns[prefix.Length..].Split('.')[0] : null;
    }
}
