/// <summary>The rest of a real heap: strings, arrays of several element types and small linked objects.</summary>
sealed class Filler(HeapPlan plan)
{
    private readonly List<string> _strings = [];
    private readonly List<Array> _arrays = [];
    private Node? _head;

    public long Objects { get; private set; }

    public void Build()
    {
        for (int i = 0; i < plan.Strings; i++)
            _strings.Add($"log line {i}: request served in {i % 997} ms");
        for (int i = 0; i < plan.Arrays; i++)
        {
            _arrays.Add((i % 3) switch
            {
                0 => new int[i % 64],
                1 => new byte[i % 200],
                _ => new object?[i % 16],
            });
        }
        for (int i = 0; i < plan.Nodes; i++)
            _head = new Node(i, _head);
        Objects = plan.Strings + plan.Arrays + plan.Nodes;
    }

    private sealed record Node(int Value, Node? Next);
}
