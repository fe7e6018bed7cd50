using System.Collections.Concurrent;
using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using DiagExt.Core.Il;

namespace DiagExt.Core.Detectors.CtorOrder.Flow;

/// <summary>
/// How many constructors of a type the code names match the binding flags: a type of the scanned assembly
/// is counted in it; a type from elsewhere (typeof(ReadOnlyDictionary&lt;,&gt;), typeof(KeyValuePair&lt;int, int&gt;))
/// in the runtime's assemblies (<see cref="RuntimeAssemblyFolder"/>), following type forwarders (netstandard, System.Runtime
/// to System.Private.CoreLib). Null when the type cannot be found there (a third-party assembly, a nested type).
/// </summary>
internal sealed class ConstructorCounter(MetadataReader md)
{
    public const int PublicFlag = 16, NonPublicFlag = 32, InstanceFlag = 4, StaticFlag = 8;
    public const int AllFlags = PublicFlag | NonPublicFlag | InstanceFlag | StaticFlag;
    private const int MaxForwards = 4;

    private static readonly ConcurrentDictionary<string, MetadataReader?> RuntimeAssemblies = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>Answers per (assembly, namespace, name, flags, arity): a lookup walks a runtime assembly's type table once.</summary>
    private static readonly ConcurrentDictionary<(string, string, string, int, int), int?> RuntimeCounts = new();

    /// <summary>
    /// How many constructors of a framework type (looked up in System.Runtime, following forwarders) match the flags and,
    /// when <paramref name="arity"/> is not negative, take that many parameters: Nullable`1 for a type the code proved nullable.
    /// </summary>
    public static int? CountFramework(string ns, string name, int flags, int arity = -1) =>
        RuntimeCounts.GetOrAdd(("System.Runtime", ns, name, flags, arity), k => InRuntime(k.Item1, k.Item2, k.Item3, k.Item4, k.Item5, 0));

    /// <param name="arity">When not negative, only constructors with that many parameters count (a predicate "GetParameters().Length == N").</param>
    public int? Count(EntityHandle type, int flags, int arity = -1)
    {
        if (flags < 0 || type.IsNil)
            return null;
        try
        {
            switch (type.Kind)
            {
                case HandleKind.TypeDefinition:
                    return CountIn(md, (TypeDefinitionHandle)type, flags, arity);
                case HandleKind.TypeSpecification:
                    // typeof(G<A, B>): the constructors of G's definition.
                    BlobReader blob = md.GetBlobReader(md.GetTypeSpecification((TypeSpecificationHandle)type).Signature);
                    if (blob.ReadSignatureTypeCode() != SignatureTypeCode.GenericTypeInstance)
                        return null;
                    blob.ReadSignatureTypeCode();
                    EntityHandle generic = blob.ReadTypeHandle();
                    return generic.Kind == HandleKind.TypeSpecification ? null : Count(generic, flags, arity);
                case HandleKind.TypeReference:
                    TypeReference reference = md.GetTypeReference((TypeReferenceHandle)type);
                    if (reference.ResolutionScope.Kind != HandleKind.AssemblyReference)
                        return null;
                    string assembly = md.GetString(md.GetAssemblyReference((AssemblyReferenceHandle)reference.ResolutionScope).Name);
                    (string, string, string, int, int) key = (assembly, md.GetString(reference.Namespace), md.GetString(reference.Name), flags, arity);
                    return RuntimeCounts.GetOrAdd(key, k => InRuntime(k.Item1, k.Item2, k.Item3, k.Item4, k.Item5, 0));
                default:
                    return null;
            }
        }
        catch (Exception e) when (MalformedMetadata.Is(e))
        {
            return null;
        }
    }

    private static int? InRuntime(string assembly, string ns, string name, int flags, int arity, int forwards)
    {
        if (forwards > MaxForwards || Open(assembly) is not { } runtime)
            return null;
        foreach (TypeDefinitionHandle h in runtime.TypeDefinitions)
        {
            TypeDefinition def = runtime.GetTypeDefinition(h);
            if (!def.GetDeclaringType().IsNil || !runtime.StringComparer.Equals(def.Name, name) || !runtime.StringComparer.Equals(def.Namespace, ns))
                continue;
            return CountIn(runtime, h, flags, arity);
        }
        foreach (ExportedTypeHandle h in runtime.ExportedTypes)
        {
            ExportedType exported = runtime.GetExportedType(h);
            if (exported.IsForwarder && exported.Implementation.Kind == HandleKind.AssemblyReference
                && runtime.StringComparer.Equals(exported.Name, name) && runtime.StringComparer.Equals(exported.Namespace, ns))
                return InRuntime(runtime.GetString(runtime.GetAssemblyReference((AssemblyReferenceHandle)exported.Implementation).Name), ns, name, flags, arity, forwards + 1);
        }
        return null;
    }

    /// <summary>A runtime assembly's metadata, opened once per process and kept (a few are used, never all).</summary>
    private static MetadataReader? Open(string assembly) => RuntimeAssemblies.GetOrAdd(assembly, name =>
    {
        if (RuntimeAssemblyFolder.Path is not { } folder || name.IndexOfAny(Path.GetInvalidFileNameChars()) >= 0)
            return null;
        string path = Path.Combine(folder, name + ".dll");
        if (!File.Exists(path))
            return null;
        try
        {
            var pe = new PEReader(File.OpenRead(path));
            return pe.HasMetadata ? pe.GetMetadataReader() : null;
        }
        catch (Exception e) when (e is BadImageFormatException or IOException or UnauthorizedAccessException)
        {
            return null;
        }
    });

    /// <summary>The parameter count from a method signature's header (ECMA-335 II.23.2.1), without decoding the types.</summary>
    private static int ParameterCount(MetadataReader reader, MethodDefinition method)
    {
        BlobReader blob = reader.GetBlobReader(method.Signature);
        SignatureHeader header = blob.ReadSignatureHeader();
        if (header.IsGeneric)
            blob.ReadCompressedInteger();
        return blob.ReadCompressedInteger();
    }

    private static int CountIn(MetadataReader reader, TypeDefinitionHandle type, int flags, int arity)
    {
        int count = 0;
        foreach (MethodDefinitionHandle h in reader.GetTypeDefinition(type).GetMethods())
        {
            MethodDefinition m = reader.GetMethodDefinition(h);
            bool isStatic = (m.Attributes & MethodAttributes.Static) != 0;
            if (!reader.StringComparer.Equals(m.Name, isStatic ? ".cctor" : ".ctor"))
                continue;
            bool isPublic = (m.Attributes & MethodAttributes.MemberAccessMask) == MethodAttributes.Public;
            bool accessOk = isPublic ? (flags & PublicFlag) != 0 : (flags & NonPublicFlag) != 0;
            bool kindOk = isStatic ? (flags & StaticFlag) != 0 : (flags & InstanceFlag) != 0;
            if (accessOk && kindOk && (arity < 0 || ParameterCount(reader, m) == arity))
                count++;
        }
        return count;
    }
}
