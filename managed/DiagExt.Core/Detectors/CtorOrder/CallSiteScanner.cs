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

    /// <summary>
    /// How many rounds of summaries: a method that returns what a method returning constructors returned is found in the
    /// next round (AutoMapper: TypeMap.DestinationConstructors over TypeDetails.Constructors over its cached, sorted
    /// GetConstructors), and its callers are analysed again with it.
    /// </summary>
    public const int MaxRounds = 6;

    public static CallSiteScan Scan(AssemblyImage image, CancellationToken cancellation = default)
    {
        var sites = new List<CallSite>();
        var problems = new List<string>();
        int suppressed = 0;
        var results = new Dictionary<MethodDefinitionHandle, FlowResult>();
        try
        {
            MetadataReader md = image.Metadata;
            var services = new FlowServices(image);
            // Wrappers and helpers are only possible where the metadata names ConstructorInfo: most assemblies do not,
            // and for them no signature needs decoding.
            var ctorInfo = new ConstructorInfoSignatures(md);
            byte[][] needles = SourceTokens(md, services.Calls, ctorInfo).Select(TokenBytes).ToArray();
            HashSet<MethodDefinitionHandle> takesCtors = TakeConstructors(md, ctorInfo);
            if (needles.Length == 0 && takesCtors.Count == 0)
                return new CallSiteScan([], [], 1, 0);
            List<MethodDefinitionHandle> todo = Calling(image, needles, takesCtors, cancellation);
            Dictionary<MethodDefinitionHandle, List<int>>? referring = null;
            for (int round = 0; round < MaxRounds && todo.Count > 0; round++)
            {
                var newlyReturning = new List<MethodDefinitionHandle>();
                foreach (MethodDefinitionHandle handle in todo)
                {
                    cancellation.ThrowIfCancellationRequested();
                    try
                    {
                        MethodBodyBlock body = image.Body(handle)!;
                        FlowResult result = CtorFlowAnalysis.Analyze(services, handle, body, IlDecoder.Decode(body.GetILBytes() ?? []));
                        results[handle] = result;
                        // An iterator's MoveNext yields for the method that creates it; anything else returns for itself.
                        if (result.HandsBack is { } back && IteratorKickoff(md, handle) is var target && services.Summaries.NoteReturns(target ?? handle, back))
                            newlyReturning.Add(target ?? handle);
                    }
                    catch (Exception e) when (MalformedMetadata.Is(e))
                    {
                        results.Remove(handle);
                        if (problems.Count < MaxProblemsPerAssembly)
                            problems.Add($"{image.DisplayName}: method 0x{MetadataTokens.GetToken(handle):x8} skipped: {OneLine(e.Message)}");
                    }
                }
                if (newlyReturning.Count == 0)
                    break;
                referring ??= ReferringTokens(md);
                byte[][] callers = CallNeedles(newlyReturning, referring);
                todo = Calling(image, callers, [], cancellation);
            }
            try
            {
                CallerTypeFacts.Settle(image, services, results, referring, cancellation);
            }
            catch (Exception e) when (MalformedMetadata.Is(e))
            {
                // Callers that cannot be read settle nothing: the picks stay as the methods' own analysis found them.
                if (problems.Count < MaxProblemsPerAssembly)
                    problems.Add($"{image.DisplayName}: callers of private helpers not read: {OneLine(e.Message)}");
            }
            var reviewed = new SuppressionAttributes(md);
            foreach ((MethodDefinitionHandle handle, FlowResult result) in results.OrderBy(r => MetadataTokens.GetToken(r.Key)))
            {
                if (result.Picks.Count > 0 && reviewed.Suppressed(handle))
                    suppressed += result.Picks.Count;
                else
                    sites.AddRange(result.Picks.Select(p => ToCallSite(image, p)));
            }
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            problems.Add($"{image.DisplayName}: metadata unreadable: {OneLine(e.Message)}");
        }
        return new CallSiteScan(sites, problems, 1, results.Count, suppressed) { LeftByCount = results.Values.SelectMany(r => r.LeftByCount).ToList() };
    }

    /// <summary>
    /// Methods with a body that call one of the tokens (or, with <paramref name="addressesToo"/>, take its address for a
    /// delegate or its handle for an expression tree), or take constructors, in metadata order.
    /// </summary>
    internal static List<MethodDefinitionHandle> Calling(AssemblyImage image, byte[][] needles, HashSet<MethodDefinitionHandle> takesCtors, CancellationToken cancellation, bool addressesToo = false)
    {
        var found = new List<MethodDefinitionHandle>();
        foreach (MethodDefinitionHandle handle in image.Metadata.MethodDefinitions)
        {
            cancellation.ThrowIfCancellationRequested();
            try
            {
                if (image.Body(handle) is { } body && (takesCtors.Contains(handle) || ContainsCall(body.GetILBytes() ?? [], needles, addressesToo)))
                    found.Add(handle);
            }
            catch (Exception e) when (MalformedMetadata.Is(e))
            {
                // A body that cannot be read is reported when it is analysed, if it ever is; here it calls nothing.
            }
        }
        return found;
    }

    /// <summary>
    /// For an iterator's MoveNext ("&lt;Name&gt;d__7.MoveNext"), the method that creates that state machine: its yields are
    /// what that method returns. Null for any other method.
    /// </summary>
    private static MethodDefinitionHandle? IteratorKickoff(MetadataReader md, MethodDefinitionHandle moveNext)
    {
        MethodDefinition def = md.GetMethodDefinition(moveNext);
        TypeDefinition machine = md.GetTypeDefinition(def.GetDeclaringType());
        string typeName = md.GetString(machine.Name);
        if (!md.StringComparer.Equals(def.Name, "MoveNext") || !typeName.StartsWith('<') || typeName.IndexOf(">d__", StringComparison.Ordinal) is not (> 1 and var close)
            || machine.GetDeclaringType().IsNil)
            return null;
        string kickoff = typeName[1..close];
        foreach (MethodDefinitionHandle candidate in md.GetTypeDefinition(machine.GetDeclaringType()).GetMethods())
        {
            MethodDefinition c = md.GetMethodDefinition(candidate);
            if (md.StringComparer.Equals(c.Name, kickoff))
                return candidate;
        }
        return null;
    }

    /// <summary>The bytes of every token that names one of <paramref name="methods"/>: what a call to them holds.</summary>
    internal static byte[][] CallNeedles(IEnumerable<MethodDefinitionHandle> methods, Dictionary<MethodDefinitionHandle, List<int>> referring) =>
        methods.SelectMany(m => referring.GetValueOrDefault(m) ?? [MetadataTokens.GetToken(m)]).Distinct().Select(TokenBytes).ToArray();

    /// <summary>Every token that names a method definition of this assembly: its own, member references (on generic instantiations) and method specifications.</summary>
    internal static Dictionary<MethodDefinitionHandle, List<int>> ReferringTokens(MetadataReader md)
    {
        var map = new Dictionary<MethodDefinitionHandle, List<int>>();
        void Add(MethodDefinitionHandle? def, int token)
        {
            if (def is not { } d)
                return;
            if (!map.TryGetValue(d, out List<int>? tokens))
                map[d] = tokens = [MetadataTokens.GetToken(d)];
            tokens.Add(token);
        }
        foreach (MemberReferenceHandle h in md.MemberReferences)
            Add(LocalMethods.Resolve(md, MetadataTokens.GetToken(h)), MetadataTokens.GetToken(h));
        for (int row = 1; row <= md.GetTableRowCount(TableIndex.MethodSpec); row++)
        {
            int token = MetadataTokens.GetToken(MetadataTokens.MethodSpecificationHandle(row));
            Add(LocalMethods.Resolve(md, token), token);
        }
        return map;
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
    private static bool ContainsCall(byte[] il, byte[][] needles, bool addressesToo)
    {
        for (int i = 0; i + 5 <= il.Length; i++)
        {
            // call, callvirt (and, with addresses, ldtoken: an expression tree's Expression.Call); ldftn and ldvirtftn
            // (FE 06, FE 07) have their token one byte further.
            int at = il[i] is 0x28 or 0x6F || addressesToo && il[i] == 0xD0 ? i + 1
                : addressesToo && il[i] == 0xFE && i + 6 <= il.Length && il[i + 1] is 0x06 or 0x07 ? i + 2 : -1;
            if (at < 0)
                continue;
            ReadOnlySpan<byte> token = il.AsSpan(at, 4);
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
