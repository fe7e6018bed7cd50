using System.Collections.Generic;

namespace DiagExt.Core.Detectors.CtorOrder.Model;

/// <summary>
/// The one definition of an order-dependent constructor pick, shared by the IL scan (DiagExt.Core, ctororder) and the
/// Roslyn analyzer (DiagExt.Analyzers compiles this file in; it must stay plain C# for netstandard2.0): where constructor
/// lists come from, which steps keep their order, which sort them, which take an element by position, which cannot
/// depend on the order, and what a predicate must test to match at most one constructor.
/// </summary>
internal static class OrderDependentPick
{
    /// <summary>The analyzer's diagnostic ID (configure with dotnet_diagnostic.DXC0001.severity in .editorconfig).</summary>
    public const string DiagnosticId = "DXC0001";

    public const string Title = "Constructor chosen by its position in reflection's constructor list";

    /// <summary>Type.GetConstructors' remarks: "does not return constructors in a particular order".</summary>
    public const string HelpLink = "https://learn.microsoft.com/dotnet/api/system.type.getconstructors#remarks";

    public const string Why = "Type.GetConstructors and TypeInfo.DeclaredConstructors return constructors in no particular order: it follows the runtime's method layout, which differs between .NET Framework with and without NGen, .NET Core 6 and 7+, and ReadyToRun images";

    public const string Fix = "choose the constructor by what it is: GetConstructor(parameter types), a marker attribute, Single() with a clear error, or sort by MetadataToken (declaration order) first";

    /// <summary>Types whose GetConstructors / DeclaredConstructors list constructors.</summary>
    public static readonly HashSet<string> SourceTypes = new(System.StringComparer.Ordinal) { "System.Type", "System.Reflection.TypeInfo", "System.RuntimeType", "System.Reflection.TypeExtensions" };

    /// <summary>Methods (and the DeclaredConstructors property's getter) that return a constructor list.</summary>
    public static readonly HashSet<string> SourceMembers = new(System.StringComparer.Ordinal) { "GetConstructors", "DeclaredConstructors", "get_DeclaredConstructors" };

    /// <summary>Enumerable methods that take an element by its position: the first, the last, the k-th.</summary>
    public static readonly HashSet<string> PositionalPicks = new(System.StringComparer.Ordinal) { "First", "FirstOrDefault", "Last", "LastOrDefault", "ElementAt", "ElementAtOrDefault" };

    /// <summary>Enumerable methods that keep the first of equally good elements: MaxBy/MinBy by a key, Aggregate by hand.</summary>
    public static readonly HashSet<string> PicksByKey = new(System.StringComparer.Ordinal) { "MaxBy", "MinBy", "Aggregate" };

    /// <summary>Picks whose result cannot depend on the order: they fail when more than one is there.</summary>
    public static readonly HashSet<string> OrderIndependent = new(System.StringComparer.Ordinal) { "Single", "SingleOrDefault" };

    /// <summary>Enumerable steps that keep the list's order (a pick after them picks from reflection's order).</summary>
    public static readonly HashSet<string> OrderPreserving = new(System.StringComparer.Ordinal) { "Where", "Select", "ToArray", "ToList", "AsEnumerable", "Cast", "OfType", "Reverse", "Distinct", "Concat" };

    /// <summary>Sorts by a key: equal keys keep reflection's order (OrderBy is stable), unless the key is unique.</summary>
    public static readonly HashSet<string> Sorts = new(System.StringComparer.Ordinal) { "OrderBy", "OrderByDescending", "ThenBy", "ThenByDescending" };

    /// <summary>A sort key no two constructors share: the metadata token, which is declaration order.</summary>
    public const string UniqueKey = "MetadataToken";

    /// <summary>Tests several constructors can pass at once: a predicate using one picks the first that does.</summary>
    public static readonly HashSet<string> LooseTests = new(System.StringComparer.Ordinal) { "IsAssignableFrom", "IsAssignableTo", "IsSubclassOf", "IsInstanceOfType", "get_IsOptional", "IsOptional", "get_HasDefaultValue", "HasDefaultValue", "All", "CanConvert", "Contains" };

    /// <summary>Attribute lookups: a marker attribute on the constructor to use, which one constructor wears.</summary>
    public static readonly HashSet<string> AttributeQueries = new(System.StringComparer.Ordinal) { "IsDefined", "GetCustomAttribute", "GetCustomAttributes", "GetCustomAttributesData" };

    /// <summary>The attribute C# puts on the types it generates (anonymous types, closures, state machines), each with one public constructor.</summary>
    public const string CompilerGeneratedAttribute = "System.Runtime.CompilerServices.CompilerGeneratedAttribute";

    /// <summary>Tests that pin one signature: exact parameter types compared in sequence.</summary>
    public const string SignatureTest = "SequenceEqual";

    /// <summary>Whether <paramref name="member"/> of <paramref name="declaringType"/> returns a constructor list.</summary>
    public static bool IsSource(string declaringType, string member) => SourceTypes.Contains(declaringType) && SourceMembers.Contains(member);
}
