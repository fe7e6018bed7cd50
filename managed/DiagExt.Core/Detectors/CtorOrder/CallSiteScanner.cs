using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using DiagExt.Core.Detectors.CtorOrder.Flow;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// Finds, in one assembly, the code that takes a constructor by position from GetConstructors() /
/// DeclaredConstructors. Fast path first: an assembly that references neither is done after a metadata
/// look; only methods whose IL contains a call to one are decoded and analysed. Malformed metadata or IL
/// costs that method (or assembly) and one line in <see cref="CallSiteScan.Problems"/>, never the scan.
/// </summary>
public static class CallSiteScanner
{
    public const int MaxProblemsPerAssembly = 20;

    public static CallSiteScan Scan(AssemblyImage image, CancellationToken cancellation = default)
    {
        var sites = new List<CallSite>();
        var problems = new List<string>();
        int analysed = 0, suppressed = 0;
        try
        {
            MetadataReader md = image.Metadata;
            var calls = new CallResolver(md);
            // Wrappers and helpers are only possible where the metadata names ConstructorInfo: most assemblies do not,
            // and for them no signature needs decoding.
            var ctorInfo = new ConstructorInfoSignatures(md);
            byte[][] needles = SourceTokens(md, calls, ctorInfo).Select(TokenBytes).ToArray();
            HashSet<MethodDefinitionHandle> takesCtors = TakeConstructors(md, ctorInfo);
            if (needles.Length == 0 && takesCtors.Count == 0)
                return new CallSiteScan([], [], 1, 0);
            var lambdas = new LambdaInspector(image);
            var builders = new RuntimeTypeBuilders(image);
            var reviewed = new SuppressionAttributes(md);
            foreach (MethodDefinitionHandle handle in md.MethodDefinitions)
            {
                cancellation.ThrowIfCancellationRequested();
                try
                {
                    if (image.Body(handle) is not { } body)
                        continue;
                    byte[] il = body.GetILBytes() ?? [];
                    if (!takesCtors.Contains(handle) && !ContainsCall(il, needles))
                        continue;
                    analysed++;
                    IlInstruction[] code = IlDecoder.Decode(il);
                    IReadOnlyList<CtorPick> picks = CtorFlowAnalysis.Analyze(image, handle, body, code, lambdas, calls, builders);
                    if (picks.Count > 0 && reviewed.Suppressed(handle))
                        suppressed += picks.Count;
                    else
                        sites.AddRange(picks.Select(p => ToCallSite(image, p)));
                }
                catch (Exception e) when (MalformedMetadata.Is(e))
                {
                    if (problems.Count < MaxProblemsPerAssembly)
                        problems.Add($"{image.DisplayName}: method 0x{MetadataTokens.GetToken(handle):x8} skipped: {OneLine(e.Message)}");
                }
            }
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            problems.Add($"{image.DisplayName}: metadata unreadable: {OneLine(e.Message)}");
        }
        return new CallSiteScan(sites, problems, 1, analysed, suppressed);
    }

    /// <summary>
    /// Tokens of the constructor sources: GetConstructors / DeclaredConstructors (member references, or definitions
    /// inside the reflection library itself), and every method that returns constructors (wrappers, here or elsewhere).
    /// </summary>
    private static IEnumerable<int> SourceTokens(MetadataReader md, CallResolver calls, ConstructorInfoSignatures ctorInfo)
    {
        foreach (MemberReferenceHandle h in md.MemberReferences)
        {
            MemberReference m = md.GetMemberReference(h);
            if (IsSource(md, m.Name, m.Signature, calls, MetadataTokens.GetToken(h), ctorInfo))
                yield return MetadataTokens.GetToken(h);
        }
        foreach (MethodDefinitionHandle h in md.MethodDefinitions)
        {
            MethodDefinition m = md.GetMethodDefinition(h);
            if (IsSource(md, m.Name, m.Signature, calls, MetadataTokens.GetToken(h), ctorInfo))
                yield return MetadataTokens.GetToken(h);
        }
    }

    private static bool IsSource(MetadataReader md, StringHandle name, BlobHandle signature, CallResolver calls, int token, ConstructorInfoSignatures ctorInfo)
    {
        bool api = md.StringComparer.Equals(name, "GetConstructors") || md.StringComparer.Equals(name, "get_DeclaredConstructors");
        if (!api && !ctorInfo.May(signature))
            return false;
        return calls.Resolve(token) is ({ } method, var kind)
            && (kind is KnownCallKind.GetConstructors or KnownCallKind.DeclaredConstructors || CtorCollectionTypes.Holds(method.ReturnType));
    }

    /// <summary>Methods with a parameter that holds constructors: helpers that pick from what their caller passed.</summary>
    private static HashSet<MethodDefinitionHandle> TakeConstructors(MetadataReader md, ConstructorInfoSignatures ctorInfo)
    {
        var result = new HashSet<MethodDefinitionHandle>();
        if (!ctorInfo.Any)
            return result;
        foreach (MethodDefinitionHandle h in md.MethodDefinitions)
        {
            try
            {
                MethodDefinition m = md.GetMethodDefinition(h);
                if (ctorInfo.May(m.Signature) && Signatures.Method(md, m).ParameterTypes.Any(CtorCollectionTypes.Holds))
                    result.Add(h);
            }
            catch (Exception e) when (MalformedMetadata.Is(e))
            {
                // A signature that does not decode: the method's own analysis reports it if it has a source call.
            }
        }
        return result;
    }

    private static byte[] TokenBytes(int token) => BitConverter.GetBytes(token);

    /// <summary>A byte-level pre-check: call (0x28) or callvirt (0x6F) followed by one of the tokens.</summary>
    private static bool ContainsCall(byte[] il, byte[][] needles)
    {
        for (int i = 0; i + 5 <= il.Length; i++)
        {
            if (il[i] is not (0x28 or 0x6F))
                continue;
            ReadOnlySpan<byte> token = il.AsSpan(i + 1, 4);
            foreach (byte[] needle in needles)
                if (token.SequenceEqual(needle))
                    return true;
        }
        return false;
    }

    private static CallSite ToCallSite(AssemblyImage image, CtorPick pick)
    {
        MetadataReader md = image.Metadata;
        MethodDefinition method = md.GetMethodDefinition(pick.Method);
        (string File, int Line)? line = image.Lines?.Find(pick.Method, pick.PickOffset);
        return new CallSite(
            image.Name,
            image.DisplayName,
            MetadataNames.TypeName(md, method.GetDeclaringType()),
            MetadataNames.MethodDisplay(md, pick.Method),
            MetadataTokens.GetToken(pick.Method),
            pick.PickOffset,
            pick.SourceOffset,
            pick.Pattern,
            pick.AppliedTo,
            line?.File,
            line?.Line,
            pick.Sorted,
            NamedTypeConstructors: pick.NamedTypeConstructors,
            TypeUnknown: pick.TypeUnknown);
    }

    private static string OneLine(string s) => s.ReplaceLineEndings(" ");
}
