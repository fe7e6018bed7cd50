using DiagExt.Core.Il;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>Turns call sites and observed type orders into findings: words, evidence lines, severity.</summary>
internal static class CtorOrderFindingBuilder
{
    /// <summary>A call site, with the reordered types it is applied to when the target shows them (then it is proven).</summary>
    public static CtorOrderFinding ForCallSite(CallSite site, IReadOnlyList<TypeCtorOrder> reordered)
    {
        // A sort before the pick hides reflection's order unless two keys tie, which the dump cannot tell:
        // reordered types are then listed, but the finding stays a warning.
        bool proven = reordered.Count > 0 && !site.SortedBeforePick;
        // Without a process: a type the code names with several matching constructors is a hazard on its own.
        bool named = !proven && site.NamedTypeConstructors > 1;
        // A type only its own library knows (built at run time, fixed by convention): no process settles it either.
        bool unknown = !proven && !named && site.TypeUnknown is not null;
        string where = $"{MetadataNames.Short(site.Type)}.{MethodName(site.Method)}";
        var evidence = new List<Markup>
        {
            Markup.Text($"code: {site.Pattern} at IL_{site.IlOffset:x4} ({(site.SourceCallIlOffset < 0 ? "list passed in as a parameter" : $"list from IL_{site.SourceCallIlOffset:x4}")})"),
            Markup.Text($"method: {site.Method} (token 0x{site.MethodToken:x8})"),
            Markup.Text($"assembly: {site.Assembly} ({site.AssemblyPath})"),
        };
        if (site.AlsoIn is { Count: > 0 } also)
            evidence.Add(Markup.Text($"also in: {string.Join(", ", also)}"));
        if (site.SourceFile is not null)
            evidence.Add(Markup.Text($"source: {site.SourceFile}:{site.SourceLine}"));
        if (site.AppliedTo is not null)
            evidence.Add(Markup.Text($"applied to: {site.AppliedTo} (named in the code)"));
        if (named)
            evidence.Add(Markup.Text($"why a hazard: {site.AppliedTo} has {site.NamedTypeConstructors} constructors that match, and index 0 is whichever reflection lists first"));
        else if (unknown)
            evidence.Add(Markup.Text($"why information: {site.TypeUnknown}; if it can have more than one matching constructor, this is a hazard"));
        else if (!proven)
            evidence.Add(Markup.Text($"why a warning: {(site.SortedBeforePick ? "equal sort keys keep reflection's order" : "the code does not name the types it is applied to")}, and that order is unspecified"));
        if (reordered.Count > 0 && !proven)
            evidence.Add(Markup.Text("sorted before the pick: the types below reach it in another order only if two of their sort keys tie"));
        foreach (TypeCtorOrder type in reordered.Take(10))
            evidence.Add(OrderLine(type));
        if (reordered.Count > 10)
            evidence.Add(Markup.Text($"... and {reordered.Count - 10} more types whose first constructor differs"));

        return new CtorOrderFinding
        {
            Kind = proven ? CtorOrderFinding.KindProven : CtorOrderFinding.KindCallSite,
            Level = proven || named ? FindingSeverity.Hazard : unknown ? FindingSeverity.Information : FindingSeverity.Warning,
            Title = proven
                ? $"{where} takes {site.Pattern} and {reordered.Count} type(s) it builds have a different first constructor here"
                : unknown ? $"{where} takes a constructor by position from a type only its library knows: {site.Pattern}"
                : $"{where} takes a constructor by position: {site.Pattern}",
            Summary = proven
                ? $"{site.Location} picks by position from reflection's constructor list, and in this process the first constructor of {Names(reordered)} is not its first declared one: the code gets a different constructor than it was written for."
                : unknown ? $"{site.Location} picks by position from reflection's constructor list of a type no assembly's metadata shows; unknown whether it can have several."
                : $"{site.Location} picks by position from reflection's constructor list, whose order is unspecified.",
            Evidence = evidence,
            Advice = CtorOrderAdvice.Fix,
            CallSite = site,
            Types = reordered,
        };
    }

    /// <summary>A loaded type whose runtime order differs from declaration order, with no code shown to depend on it.</summary>
    public static CtorOrderFinding ForType(TypeCtorOrder type) => new()
    {
        Kind = CtorOrderFinding.KindOrderDiffers,
        Level = FindingSeverity.Information,
        Title = $"{MetadataNames.Short(type.Type)}: reflection returns {type.RuntimeOrder[0]} first, declared first is {type.MetadataOrder[0]}",
        Summary = $"In this process GetConstructors() on {type.Type} returns its constructors in another order than they are declared. No scanned code takes a constructor of it by position; code that does would get {type.RuntimeOrder[0]}.",
        Evidence = [OrderLine(type), Markup.Text($"module: {type.Module}, MethodTable {type.MethodTable}")],
        Types = [type],
    };

    private static Markup OrderLine(TypeCtorOrder type) =>
        Markup.Text($"{type.Type}: runtime order {string.Join(", ", type.RuntimeOrder)} ({type.OrderSource}); declared {string.Join(", ", type.MetadataOrder)}");

    private static string Names(IReadOnlyList<TypeCtorOrder> types) =>
        types.Count <= 3 ? string.Join(", ", types.Select(t => t.Type)) : $"{string.Join(", ", types.Take(3).Select(t => t.Type))} and {types.Count - 3} more";

    private static string MethodName(string display)
    {
        int paren = display.IndexOf('(');
        string head = paren < 0 ? display : display[..paren];
        int dot = head.LastIndexOf('.');
        return dot < 0 ? head : head[(dot + 1)..];
    }
}
