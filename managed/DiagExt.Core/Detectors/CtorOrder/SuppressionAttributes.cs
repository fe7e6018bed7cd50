using System.Reflection.Metadata;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder;

/// <summary>
/// A reviewed site marked in the code: [UnconditionalSuppressMessage("DiagExt", "CtorOrder")] (or SuppressMessage,
/// which the compiler keeps only where CODE_ANALYSIS is defined) on the method, a type around it, or the assembly.
/// A lambda, local function, iterator or async body counts as the method whose name the compiler put in its own
/// ("&lt;Create&gt;b__3_0" belongs to Create). Any check id starting with "CtorOrder" matches ("CtorOrder:reviewed").
/// </summary>
internal sealed class SuppressionAttributes(MetadataReader md)
{
    public const string Category = "DiagExt";
    public const string CheckId = "CtorOrder";
    private const int MaxNesting = 32;

    private readonly Dictionary<EntityHandle, bool> _marked = [];

    public bool Suppressed(MethodDefinitionHandle method)
    {
        if (Marked(method) || Marked(EntityHandle.AssemblyDefinition))
            return true;
        MethodDefinition def = md.GetMethodDefinition(method);
        string? source = SourceName(md.GetString(def.Name));
        TypeDefinitionHandle type = def.GetDeclaringType();
        for (int depth = 0; depth < MaxNesting && !type.IsNil; depth++)
        {
            TypeDefinition t = md.GetTypeDefinition(type);
            if (Marked(type))
                return true;
            string name = md.GetString(t.Name);
            if (!name.StartsWith('<'))
            {
                // The first type written in source: the method the compiler-generated code came from is declared here.
                if (source is not null && t.GetMethods().Any(m => md.StringComparer.Equals(md.GetMethodDefinition(m).Name, source) && Marked(m)))
                    return true;
                source = null;
            }
            else
                source ??= SourceName(name);
            type = t.GetDeclaringType();
        }
        return false;
    }

    /// <summary>"Create" from "&lt;Create&gt;b__3_0", "&lt;Create&gt;g__Local|3_0" or "&lt;Create&gt;d__3"; null for "&lt;&gt;c" or a plain name.</summary>
    private static string? SourceName(string name)
    {
        if (!name.StartsWith('<'))
            return null;
        int close = name.IndexOf('>');
        return close > 1 ? name[1..close] : null;
    }

    private bool Marked(EntityHandle target)
    {
        if (_marked.TryGetValue(target, out bool known))
            return known;
        // A module without an assembly row has no assembly attributes; a default collection has no reader to enumerate.
        if (target.Kind == HandleKind.AssemblyDefinition && !md.IsAssembly)
            return false;
        bool marked = false;
        CustomAttributeHandleCollection attributes = target.Kind switch
        {
            HandleKind.MethodDefinition => md.GetMethodDefinition((MethodDefinitionHandle)target).GetCustomAttributes(),
            HandleKind.TypeDefinition => md.GetTypeDefinition((TypeDefinitionHandle)target).GetCustomAttributes(),
            _ => md.GetAssemblyDefinition().GetCustomAttributes(),
        };
        foreach (CustomAttributeHandle h in attributes)
        {
            if (IsOurs(md.GetCustomAttribute(h)))
            {
                marked = true;
                break;
            }
        }
        _marked[target] = marked;
        return marked;
    }

    private bool IsOurs(CustomAttribute attribute)
    {
        EntityHandle owner = attribute.Constructor.Kind switch
        {
            HandleKind.MemberReference => md.GetMemberReference((MemberReferenceHandle)attribute.Constructor).Parent,
            HandleKind.MethodDefinition => md.GetMethodDefinition((MethodDefinitionHandle)attribute.Constructor).GetDeclaringType(),
            _ => default,
        };
        if (owner.IsNil || MetadataNames.TypeName(md, owner) is not ("System.Diagnostics.CodeAnalysis.SuppressMessageAttribute" or "System.Diagnostics.CodeAnalysis.UnconditionalSuppressMessageAttribute"))
            return false;
        BlobReader value = md.GetBlobReader(attribute.Value);
        if (value.Length < 2 || value.ReadUInt16() != 1)
            return false;
        string? category = value.ReadSerializedString();
        string? checkId = value.ReadSerializedString();
        return string.Equals(category, Category, StringComparison.OrdinalIgnoreCase)
            && checkId is not null && checkId.StartsWith(CheckId, StringComparison.OrdinalIgnoreCase)
            && (checkId.Length == CheckId.Length || !char.IsLetterOrDigit(checkId[CheckId.Length]));
    }
}
