using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>What every method analysis of one assembly shares: its metadata readers and caches, and the method summaries.</summary>
internal sealed class FlowServices
{
    public FlowServices(AssemblyImage image)
    {
        Image = image;
        Lambdas = new LambdaInspector(image);
        Calls = new CallResolver(image.Metadata);
        Builders = new RuntimeTypeBuilders(image);
        Summaries = new MethodSummaries(this);
    }

    public AssemblyImage Image { get; }

    public LambdaInspector Lambdas { get; }

    public CallResolver Calls { get; }

    public RuntimeTypeBuilders Builders { get; }

    public MethodSummaries Summaries { get; }

    /// <summary>What callers pass the private methods whose picks depend on a Type parameter (filled by <see cref="CallerTypeFacts"/>).</summary>
    public CallerArguments Callers { get; } = new();

    /// <summary>Per field token, whether its declared type is an expression tree lambda (decoded once per assembly).</summary>
    public Dictionary<int, bool> LambdaFields { get; } = [];
}
