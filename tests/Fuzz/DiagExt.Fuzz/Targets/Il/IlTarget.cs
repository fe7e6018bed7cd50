using System.Reflection.Metadata;
using DiagExt.Core.Analysis;
using DiagExt.Core.Detectors.CtorOrder;
using DiagExt.Core.Il;
using DiagExt.Core.Reports;
using DiagExt.Core.Targets;
using DiagExt.Fuzz.Checks;
using DiagExt.Fuzz.Engine;

namespace DiagExt.Fuzz.Targets.Il;

/// <summary>
/// A managed assembly through what "ctororder --assembly" and the dump mode do with it: opened flat (a file) and as
/// mapped (an image in a dump), scanned for positional constructor picks (metadata names, the IL decoder, the flow
/// analysis over every method that calls GetConstructors), with its embedded PDB's source lines; the call sites are
/// rendered as findings in text, DML and JSON and checked.
/// </summary>
public sealed class IlTarget : IFuzzTarget
{
    public string Name => "il";

    public string Covers => "Il/ (AssemblyImage, IlDecoder, MetadataNames, SignatureTypeNames, MethodReference, LocalMethods, SourceLines), Detectors/CtorOrder/ (CallSiteScanner, Flow/), rendering";

    public IReadOnlyList<byte[]> Tokens { get; } = [[0x28], [0x6F], [0x45, 0xFF, 0xFF, 0xFF, 0x7F], [0x20], [0x15, 0x12], "BSJB"u8.ToArray(), "#~\0\0"u8.ToArray()];

    public IEnumerable<byte[]> BuiltInSeeds()
    {
        string seed = Path.Combine(AppContext.BaseDirectory, "IlSeed.dll");
        if (File.Exists(seed))
            yield return File.ReadAllBytes(seed);
    }

    public IReadOnlyList<Field> Fields(ReadOnlySpan<byte> input) => IlFields.Find(input);

    /// <summary>A file that is not a managed assembly: the scanner counts it as native and skips it.</summary>
    public bool IsDocumentedRejection(Exception e) => e is BadImageFormatException;

    public string Execute(ReadOnlyMemory<byte> input)
    {
        var signature = new Signature();
        using AssemblyImage image = AssemblyImage.FromMemory(input.ToArray(), "fuzz.dll", loadedLayout: false, pathOnDisk: null);
        CallSiteScan scan = CallSiteScanner.Scan(image);
        // The first words of the first problem only: messages quote names from the (mutated) metadata, which is noise.
        signature.Add("analysed", scan.MethodsAnalysed).Add("sites", scan.Sites.Count).Add("problem", FirstWords(scan.Problems.FirstOrDefault()?.Split(": ", 3).Last()));
        foreach (CallSite site in scan.Sites.Take(4))
            signature.Add("pattern", site.Pattern).Add("sorted", site.SortedBeforePick).Add("line", site.SourceLine is not null);
        signature.Add("mapped", OpensMapped(input));

        IReadOnlyList<Finding> findings = scan.Sites.Select(s => (Finding)CtorOrderFindingBuilder.ForCallSite(s, [])).ToList();
        var summary = new AssemblyScanSummary("fuzz.dll", 1, 1, 0, scan.MethodsAnalysed);
        var outcome = new DetectorOutcome(CtorOrderDetector.CommandName, DetectorStatus.Ran, scan.Problems.Count == 0 ? null : string.Join("; ", scan.Problems), findings, TimeSpan.Zero);
        ReportChecks.Check(new AnalysisReport(summary, [outcome], null, TimeSpan.Zero));
        return signature.ToString();
    }

    private static string? FirstWords(string? text) => text is null ? null : string.Join(' ', text.Split(' ').Take(3));

    /// <summary>The dump mode's second try: the same bytes as a mapped image, its tables touched as LoadedModuleImages does.</summary>
    private static bool OpensMapped(ReadOnlyMemory<byte> input)
    {
        try
        {
            using AssemblyImage mapped = AssemblyImage.FromMemory(input.ToArray(), "fuzz.dll", loadedLayout: true, pathOnDisk: null);
            return mapped.Metadata.MethodDefinitions.Count >= 0;
        }
        catch (BadImageFormatException)
        {
            return false;
        }
    }
}
