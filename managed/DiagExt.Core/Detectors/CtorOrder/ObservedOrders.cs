using DiagExt.Core.Il;
using DiagExt.Core.Reports;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// The constructor orders reflection returned in the target, one information finding per module: the
/// evidence that the dump was read, and the list a reviewer compares with other runtimes.
/// </summary>
internal static class ObservedOrders
{
    public const string Kind = "constructor-order-observed";

    public static IEnumerable<CtorOrderFinding> Summarize(LoadedTypeOrders.Result orders, IReadOnlyList<string> problems)
    {
        foreach (IGrouping<string, TypeCtorOrder> module in orders.Types.Select(t => t.Order).GroupBy(t => t.Module))
        {
            List<TypeCtorOrder> types = module.ToList();
            int differ = types.Count(t => t.OrderDiffers);
            var evidence = new List<Markup>();
            foreach (TypeCtorOrder t in types.Take(5))
                evidence.Add(Markup.Text($"{t.Type}: {string.Join(", ", t.RuntimeOrder)}{(t.OrderDiffers ? $" (declared {string.Join(", ", t.MetadataOrder)})" : "")}"));
            if (types.Count > 5)
                evidence.Add(Markup.Text($"... {types.Count - 5} more in the JSON output (types)"));
            evidence.Add(Markup.Text($"MethodDesc chunk reconstruction (all modules): agrees with reflection for {orders.ChunkOrderAgrees}, differs for {orders.ChunkOrderDisagrees}, not possible for {orders.ChunkOrderUnknown}"));
            if (problems.Count > 0)
                evidence.Add(Markup.Text($"not scanned: {string.Join("; ", problems.Take(3))}{(problems.Count > 3 ? $"; and {problems.Count - 3} more" : "")}"));
            yield return new CtorOrderFinding
            {
                Kind = Kind,
                Level = FindingSeverity.Information,
                Title = $"{module.Key}: constructor order of {types.Count} type(s) as reflection returned it; {(differ == 0 ? "all in declaration order" : $"{differ} differ from declaration order")}",
                Summary = $"Reflection listed the constructors of {types.Count} type(s) with two or more constructors from {module.Key} in this process ({TypeCtorOrder.FromReflectionCache}).",
                Evidence = evidence,
                Types = types,
                MethodDescChunkCheck = new ChunkOrderCheck(orders.ChunkOrderAgrees, orders.ChunkOrderDisagrees, orders.ChunkOrderUnknown),
            };
        }
    }
}
