using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using DiagExt.Core.Detectors.CtorOrder.Flow;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// Issue 41, category 4 through callers: a method that picks from the constructors of a type its callers give it (its
/// own System.Type parameter, or a local its caller captured: a local function reads it from the caller's display class,
/// passed by reference) is analysed again knowing what every caller passes. When every call in the assembly passes types
/// the code shows (typeof, MakeGenericType of a definition, a generic tested for its definition, one of a few such types on
/// joining paths) with at most one matching constructor, the pick cannot depend on the order and is left alone (said in
/// the scan's note). Only methods nothing outside the assembly can call: private, non-virtual ones, and local functions
/// (their names cannot be written). A method whose address is taken (a delegate may call it with anything) or one caller
/// that cannot be analysed leaves the picks as they were.
/// </summary>
internal static class CallerTypeFacts
{
    /// <param name="referring">The tokens naming each method, when the scan already built them (else built here).</param>
    public static void Settle(AssemblyImage image, FlowServices services, Dictionary<MethodDefinitionHandle, FlowResult> results,
        Dictionary<MethodDefinitionHandle, List<int>>? referring, CancellationToken cancellation)
    {
        MetadataReader md = image.Metadata;
        List<MethodDefinitionHandle> candidates = results
            .Where(r => r.Value.Picks.Any(p => p.AppliedTo is null) && OnlyCalledHere(md, r.Key) && TakesTypesFromCallers(md, r.Key))
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
        foreach (MethodDefinitionHandle method in candidates)
        {
            cancellation.ThrowIfCancellationRequested();
            CallerContext context = ContextOf(md, services.Callers, method);
            if (context.IsEmpty)
                continue;
            FlowResult before = results[method];
            FlowResult again;
            try
            {
                MethodBodyBlock body = image.Body(method)!;
                again = CtorFlowAnalysis.Analyze(services, method, body, IlDecoder.Decode(body.GetILBytes() ?? []), context);
            }
            catch (Exception e) when (MalformedMetadata.Is(e))
            {
                continue; // analysed once already: the picks stay as that found them
            }
            // Kept when it settles a pick, or proves one (a generic tested for a definition with several constructors).
            bool settles = again.Picks.Count < before.Picks.Count;
            bool proves = again.Picks.Count == before.Picks.Count && Proven(again) > Proven(before);
            if (!settles && !proves)
                continue;
            IEnumerable<string> left = again.LeftByCount.Except(before.LeftByCount).Select(l => $"{l} (what every caller of {Name(md, method)} passes)");
            results[method] = before with { Picks = again.Picks, LeftByCount = [.. before.LeftByCount, .. left] };
        }
    }

    private static int Proven(FlowResult result) => result.Picks.Count(p => p.NamedTypeConstructors is not null);

    /// <summary>What every caller passes that the code names: argument types, and the captured locals a local function reads.</summary>
    private static CallerContext ContextOf(MetadataReader md, CallerArguments callers, MethodDefinitionHandle method)
    {
        MethodDefinition def = md.GetMethodDefinition(method);
        int argCount = Signatures.Method(md, def).ParameterTypes.Length + ((def.Attributes & MethodAttributes.Static) == 0 ? 1 : 0);
        var args = new Dictionary<int, FlowValue>();
        for (int i = 0; i < argCount; i++)
            if (callers.Of(method, i) is { } passed && KnownTypes.Describe(passed) is not null)
                args[i] = passed;
        Dictionary<int, FlowValue> fields = callers.FieldsOf(method)
            .Where(f => KnownTypes.Describe(f.Value) is not null && IsCapturedLocal(md, f.Key))
            .ToDictionary(f => f.Key, f => f.Value);
        return new CallerContext(args, fields);
    }

    /// <summary>Whether a field token names a field of a closure's display class: a local the compiler hoisted.</summary>
    private static bool IsCapturedLocal(MetadataReader md, int token)
    {
        EntityHandle handle = MetadataTokens.EntityHandle(token);
        return handle.Kind == HandleKind.FieldDefinition
            && IsDisplayClass(md.GetString(md.GetTypeDefinition(md.GetFieldDefinition((FieldDefinitionHandle)handle).GetDeclaringType()).Name));
    }

    /// <summary>Whether a type name is a closure's display class ("&lt;&gt;c__DisplayClass3_0"), the compiler's home for captured locals.</summary>
    internal static bool IsDisplayClass(string typeName) => typeName.Contains("<>c__DisplayClass", StringComparison.Ordinal);

    /// <summary>A System.Type parameter, or a display class by reference (what a local function's captured locals come in).</summary>
    private static bool TakesTypesFromCallers(MetadataReader md, MethodDefinitionHandle method) =>
        Signatures.Method(md, md.GetMethodDefinition(method)).ParameterTypes.Any(t => t is "System.Type" or "System.Reflection.TypeInfo" || t.EndsWith('&') && IsDisplayClass(t));

    private static string Name(MetadataReader md, MethodDefinitionHandle method)
    {
        MethodDefinition def = md.GetMethodDefinition(method);
        string name = md.GetString(def.Name);
        // "<Wrap>g__Build|0_0" is how the compiler names Wrap's local function Build.
        int mark = name.IndexOf(">g__", StringComparison.Ordinal), bar = name.IndexOf('|', StringComparison.Ordinal);
        if (name.StartsWith('<') && mark > 1 && bar > mark)
            name = $"{name[1..mark]}'s local function {name[(mark + 4)..bar]}";
        return $"{MetadataNames.Short(MetadataNames.TypeName(md, def.GetDeclaringType()))}.{name}";
    }

    /// <summary>Private and not virtual, or a local function (its compiler-given name no source can write): every call is in this assembly.</summary>
    private static bool OnlyCalledHere(MetadataReader md, MethodDefinitionHandle method)
    {
        MethodDefinition def = md.GetMethodDefinition(method);
        MethodAttributes attributes = def.Attributes;
        if ((attributes & MethodAttributes.Virtual) != 0)
            return false;
        return (attributes & MethodAttributes.MemberAccessMask) == MethodAttributes.Private || md.GetString(def.Name).Contains(">g__", StringComparison.Ordinal);
    }
}
