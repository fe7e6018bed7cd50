namespace CtorOrderSample;

/// <summary>The seed's base class: a default constructor and one taking a string.</summary>
public class Base
{
    public Base()
    {
        Name = "default";
    }

    public Base(string name)
    {
        Name = name ?? throw new ArgumentNullException(nameof(name));
    }

    public string Name { get; }
}
