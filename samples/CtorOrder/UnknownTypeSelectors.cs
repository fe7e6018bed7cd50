using System.Reflection;
using System.Reflection.Emit;

namespace CtorOrderSample;

/// <summary>
/// Picks by position on types only this code knows: built at run time with TypeBuilder, or a wrapper type fixed by
/// convention. No assembly's metadata (and no dump of another process) says how many constructors they have:
/// ctororder --assembly reports them as information, not as warnings.
/// </summary>
public static class UnknownTypeSelectors
{
    /// <summary>The type a helper of this assembly emits (Mapster's DynamicTypeGenerator shape).</summary>
    public static ConstructorInfo OfEmittedType() => EmitType().GetConstructors()[0];

    /// <summary>The constructor goes to TypeBuilder.GetConstructor: the type is one this code emits (Castle's invocation types).</summary>
    public static ConstructorInfo OfEmittedGeneric(Type emitted, Type argument)
    {
        ConstructorInfo constructor = emitted.GetConstructors()[0];
        return emitted.IsGenericTypeDefinition ? TypeBuilder.GetConstructor(emitted.MakeGenericType(argument), constructor) : constructor;
    }

    /// <summary>A constructed generic whose argument the code takes apart: a wrapper fixed by convention (Grace's Meta&lt;T&gt;).</summary>
    public static ConstructorInfo OfWrapper(Request request)
    {
        Type wrapped = request.ActivationType.GenericTypeArguments[0];
        Console.WriteLine(wrapped);
        return request.ActivationType.GetTypeInfo().DeclaredConstructors.First();
    }

    private static Type EmitType()
    {
        AssemblyBuilder assembly = AssemblyBuilder.DefineDynamicAssembly(new AssemblyName("CtorOrderSample.Emitted"), AssemblyBuilderAccess.Run);
        TypeBuilder type = assembly.DefineDynamicModule("Emitted").DefineType("Emitted", TypeAttributes.Public);
        type.DefineDefaultConstructor(MethodAttributes.Public);
        return type.CreateTypeInfo()!;
    }

    public sealed class Request(Type activationType)
    {
        public Type ActivationType { get; } = activationType;
    }
}
