using System.Reflection;
using System.Reflection.Metadata;
using DiagExt.Core.Detectors.CtorOrder.Flow;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// Issue 41, category 4 through callers: a private method that picks from the constructors of its own System.Type
/// parameter is settled by what its callers pass. When every call in the assembly passes a type the code shows
/// (typeof, MakeGenericType of a definition, one of a few such types on joining paths) with at most one matching
/// constructor, the pick cannot depend on the order and is left alone (said in the scan's note). Only private,
/// non-virtual methods: nothing outside the assembly can call them, and a method whose address is taken (a delegate
/// may call it with anything) or one caller that cannot be analysed leaves the pick as it was.
/// </summary>
internal static class CallerTypeFacts
{
    /// <param name="referring">The tokens naming each method, when the scan already built them (else built here).</param>
    public static void Settle(AssemblyImage image, FlowServices services, Dictionary<MethodDefinitionHandle, FlowResult> results,
        Dictionary<MethodDefinitionHandle, List<int>>? referring, CancellationToken cancellation)
    {
        MetadataReader md = image.Metadata;
        List<MethodDefinitionHandle> candidates = results
            .Where(r => r.Value.Picks.Any(p => p.TypeParameter is not null) && PrivateAndNotVirtual(md, r.Key))
            .Select(r => r.Key).ToList();
        if (candidates.Count == 0)
            return;
        services.Callers.Want(candidates);
        byte[][] needles = CallSiteScanner.CallNeedles(candidates, referring ?? CallSiteScanner.ReferringTokens(md));
        foreach (MethodDefinitionHandle caller in CallSiteScanner.Calling(image, needles, [], cancellation, addressesToo: true))
        {
            cancellation.ThrowIfCancellationRequested();
            try
            {
                MethodBodyBlock body = image.Body(caller)!;
                CtorFlowAnalysis.Analyze(services, caller, body, IlDecoder.Decode(body.GetILBytes() ?? []));
            }
            catch (Exception e) when (MalformedMetadata.Is(e))
            {
                services.Callers.EscapedAll();
            }
        }
        var counter = new ConstructorCounter(md);
        foreach (MethodDefinitionHandle method in candidates)
        {
            FlowResult result = results[method];
            var kept = new List<CtorPick>();
            var left = new List<string>();
            foreach (CtorPick pick in result.Picks)
            {
                if (pick.TypeParameter is int index && services.Callers.Of(method, index) is { } passed && KnownTypes.Count(counter, passed, pick.Flags) is <= 1)
                    left.Add($"{KnownTypes.Describe(passed)} (what every caller of {Name(md, method)} passes)");
                else
                    kept.Add(pick);
            }
            if (left.Count > 0)
                results[method] = result with { Picks = kept, LeftByCount = [.. result.LeftByCount, .. left] };
        }
    }

    private static string Name(MetadataReader md, MethodDefinitionHandle method)
    {
        MethodDefinition def = md.GetMethodDefinition(method);
        return $"{MetadataNames.Short(MetadataNames.TypeName(md, def.GetDeclaringType()))}.{md.GetString(def.Name)}";
    }

    private static bool PrivateAndNotVirtual(MetadataReader md, MethodDefinitionHandle method)
    {
        MethodAttributes attributes = md.GetMethodDefinition(method).Attributes;
        return (attributes & MethodAttributes.MemberAccessMask) == MethodAttributes.Private && (attributes & MethodAttributes.Virtual) == 0;
    }
}
