// The seed of ../shared/reference/getconstructors-order.txt: 10,000 DerivedSealed classes with two
// constructors, an ObjectBuilder-style container that builds each one through GetConstructors()[0],
// and the seed's CheckCtorOrder. Then it prints READY and waits to be dumped: every type's reflection
// cache (RuntimeTypeCache.m_constructorInfoCache) now holds the order this runtime returned.
using System.Reflection;

namespace CtorOrderSample;

// An explicit class rather than top-level statements: the compiler emits a top-level Program before every
// other type, which would shift the generated types' MethodDef rows whenever this file changes.
public static class Program
{
    public static int Main(string[] args)
    {
        Type[] types = typeof(Base).Assembly.GetTypes().Where(t => t.Name.StartsWith("DerivedSealed", StringComparison.Ordinal)).OrderBy(t => t.MetadataToken).ToArray();
        DefaultCreationPolicy policy = DefaultCreationPolicy.Shared;
        int built = 0, failed = 0;
        foreach (Type type in types)
        {
            try
            {
                policy.Build(type);
                built++;
            }
            catch (InvalidOperationException)
            {
                failed++;
            }
        }

        policy.Build(typeof(Base));
        int reordered = CheckCtorOrder(types);
        Console.WriteLine($"runtime {Environment.Version}: {types.Length} DerivedSealed types, built {built}, failed {failed}, first constructor not the default: {reordered}");

        // Run the other shapes once so that the dump holds their JIT-ed code and reflection caches too.
        Type sample = types.Length > 0 ? types[0] : typeof(Base);
        Console.WriteLine($"hazardous: {HazardousSelectors.FirstOfAll(sample)} | {HazardousSelectors.FirstDeclared(sample)} | {HazardousSelectors.ElementZero(sample)} | {HazardousSelectors.Greediest(typeof(Base))} | {HazardousSelectors.FirstPublicLast(sample)}");
        Console.WriteLine($"safe: {SafeSelectors.GuardedByLength(typeof(SafeSelectors.OneConstructor))} | {SafeSelectors.ByParameterTypes(sample)} | {SafeSelectors.Parameterless(sample)} | {SafeSelectors.DeclarationOrder(sample)} | {SafeSelectors.CountWithParameters(sample)} | {SafeSelectors.OfSingleConstructorType()} | {SafeSelectors.OnlyOne(typeof(SafeSelectors.OneConstructor))} | {SafeSelectors.GuardedByThrow(typeof(SafeSelectors.OneConstructor))}");

        // "--orders FILE": the order reflection returned for each type, for tests to compare with what a dump shows.
        int ordersAt = Array.IndexOf(args, "--orders");
        if (ordersAt >= 0 && ordersAt + 1 < args.Length)
        {
            File.WriteAllLines(args[ordersAt + 1], types.Prepend(typeof(Base)).Select(t =>
                $"{t.FullName}: {string.Join(", ", t.GetConstructors().Select(c => $".ctor({string.Join(", ", c.GetParameters().Select(p => p.ParameterType.Name))})"))}"));
        }

        if (args.Contains("--exit"))
            return reordered == 0 ? 0 : 3;
        Console.WriteLine($"READY {System.Diagnostics.Process.GetCurrentProcess().Id}");
        Thread.Sleep(Timeout.Infinite);
        return 0;
    }

    // The seed's check: the first constructor should be the default one.
    static int CheckCtorOrder(Type[] types)
    {
        int count = 0;
        foreach (Type type in types)
        {
            ConstructorInfo[] infos = type.GetConstructors();
            if (infos[0].GetParameters().Length > 0)
            {
                if (count < 20)
                    Console.WriteLine($"Type {type.Name} has different ordered ctor!");
                count++;
            }
        }
        return count;
    }
}
