using System.Reflection.Metadata;

namespace DiagExt.Core.Il;

/// <summary>Readable names of metadata entities: "Ns.Outer+Inner", "Ns.Type.Method". Nesting depth is bounded.</summary>
public static class MetadataNames
{
    private const int MaxNesting = 32;

    public static string TypeName(MetadataReader reader, TypeDefinitionHandle handle)
    {
        string name = "";
        for (int depth = 0; depth < MaxNesting && !handle.IsNil; depth++)
        {
            TypeDefinition type = reader.GetTypeDefinition(handle);
            string simple = reader.GetString(type.Name);
            string ns = reader.GetString(type.Namespace);
            name = name.Length == 0 ? simple : $"{simple}+{name}";
            handle = type.GetDeclaringType();
            if (handle.IsNil && ns.Length > 0)
                name = $"{ns}.{name}";
        }
        return name;
    }

    public static string TypeName(MetadataReader reader, TypeReferenceHandle handle)
    {
        string name = "";
        for (int depth = 0; depth < MaxNesting; depth++)
        {
            TypeReference type = reader.GetTypeReference(handle);
            string simple = reader.GetString(type.Name);
            name = name.Length == 0 ? simple : $"{simple}+{name}";
            if (type.ResolutionScope.Kind != HandleKind.TypeReference)
            {
                string ns = reader.GetString(type.Namespace);
                return ns.Length > 0 ? $"{ns}.{name}" : name;
            }
            handle = (TypeReferenceHandle)type.ResolutionScope;
        }
        return name;
    }

    /// <summary>The name of any type-like handle (definition, reference or specification).</summary>
    public static string TypeName(MetadataReader reader, EntityHandle handle) => handle.Kind switch
    {
        HandleKind.TypeDefinition => TypeName(reader, (TypeDefinitionHandle)handle),
        HandleKind.TypeReference => TypeName(reader, (TypeReferenceHandle)handle),
        HandleKind.TypeSpecification => Signatures.Type(reader, (TypeSpecificationHandle)handle),
        _ => "?",
    };

    /// <summary>"Ns.Type.Method(ParamType, ...)" for a method definition.</summary>
    public static string MethodDisplay(MetadataReader reader, MethodDefinitionHandle handle)
    {
        MethodDefinition method = reader.GetMethodDefinition(handle);
        MethodSignature<string> sig = Signatures.Method(reader, method);
        return $"{TypeName(reader, method.GetDeclaringType())}.{reader.GetString(method.Name)}({string.Join(", ", sig.ParameterTypes.Select(Short))})";
    }

    /// <summary>The last dotted segment of a type name, generic arguments kept: "System.String" becomes "String".</summary>
    public static string Short(string typeName)
    {
        int lt = typeName.IndexOf('<');
        string head = lt < 0 ? typeName : typeName[..lt];
        int dot = head.LastIndexOf('.');
        return dot < 0 ? typeName : typeName[(dot + 1)..];
    }
}
