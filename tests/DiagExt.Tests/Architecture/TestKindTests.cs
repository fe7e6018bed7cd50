using System.Reflection;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Architecture;

/// <summary>
/// Every fixture carries exactly one of the suite's categories, so <c>scripts/test.sh --fast</c> never silently
/// drops a new fixture (an uncategorised fixture would run in the full suite only), and a unit fixture never starts
/// a process or makes a dump (those are what make the fast loop slow).
/// </summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class TestKindTests
{
    static IEnumerable<Type> Fixtures() =>
        typeof(TestKindTests).Assembly.GetTypes().Where(IsFixture).OrderBy(t => t.FullName, StringComparer.Ordinal);

    static bool IsFixture(Type type) =>
        type.IsClass && type.GetMethods().Any(m =>
            m.GetCustomAttributes<TestAttribute>().Any() || m.GetCustomAttributes<TestCaseAttribute>().Any() ||
            m.GetCustomAttributes<TestCaseSourceAttribute>().Any());

    static string[] KindsOf(Type fixture) =>
        fixture.GetCustomAttributes<CategoryAttribute>(inherit: true).Select(c => c.Name)
            .Where(TestKind.All.Contains).ToArray();

    [Test]
    public void Every_fixture_has_exactly_one_kind()
    {
        string[] wrong = Fixtures().Where(t => KindsOf(t).Length != 1)
            .Select(t => $"{t.FullName}: [{string.Join(", ", KindsOf(t))}]").ToArray();
        Assert.That(wrong, Is.Empty, "each fixture needs one [Category(TestKind.X)]");
    }

    [Test]
    public void Unit_fixtures_start_no_sample_and_make_no_dump()
    {
        // The helpers that build, run or dump a sample; a unit fixture naming one of them belongs to another kind.
        Type[] slow = [typeof(DumpMaker), typeof(SampleProcess), typeof(SampleBuilder), typeof(WinePrefix),
            typeof(WineDumpMaker), typeof(EngineHost), typeof(MingwBuild), typeof(NuGetPackages), typeof(SlurmCluster)];
        string[] wrong = Fixtures().Where(t => KindsOf(t).SequenceEqual([TestKind.Unit]))
            .Select(t => (Fixture: t, Reached: Reached(t)))
            .Where(r => r.Reached.Keys.Intersect(slow).Any())
            .Select(r => $"{r.Fixture.FullName} reaches {Path(r.Reached, r.Reached.Keys.Intersect(slow).First())}")
            .ToArray();
        Assert.That(wrong, Is.Empty);
    }

    [Test]
    public void A_fixture_starts_a_slurm_cluster_if_and_only_if_its_kind_is_slurm()
    {
        // The slurm kind is what a machine without Slurm (or a run that wants no daemons) leaves out: nothing else
        // may start one, and a slurm fixture that starts none would be skipped for no reason.
        string[] wrong = Fixtures()
            .Where(t => Reached(t).ContainsKey(typeof(SlurmCluster)) != KindsOf(t).SequenceEqual([TestKind.Slurm]))
            .Select(t => $"{t.FullName}: [{string.Join(", ", KindsOf(t))}]{(Reached(t).ContainsKey(typeof(SlurmCluster)) ? " starts a Slurm cluster" : " starts no Slurm cluster")}")
            .ToArray();
        Assert.That(wrong, Is.Empty);
    }

    // The suite's own types a fixture reaches through its helpers (BatchFolder makes dumps through DumpMaker).
    // Each reached type maps to the type it was reached from, so a failure can say how. Other fixtures are not
    // followed (their kind is checked on its own; a shared assertion helper in one does not make a dump).
    static Dictionary<Type, Type?> Reached(Type fixture)
    {
        var from = new Dictionary<Type, Type?> { [fixture] = null };
        var pending = new Queue<Type>([fixture]);
        while (pending.TryDequeue(out Type? type))
            foreach (Type used in UsedTypes(type))
                if (used.Assembly == fixture.Assembly && from.TryAdd(used, type) && !IsFixture(used))
                    pending.Enqueue(used);
        return from;
    }

    static string Path(Dictionary<Type, Type?> from, Type reached)
    {
        var chain = new List<string>();
        for (Type? t = reached; t is not null; t = from[t])
            chain.Add(t.Name);
        chain.Reverse();
        return string.Join(" -> ", chain);
    }

    // The types a fixture's methods (and their lambdas, iterators and async bodies) call into, read from the IL's
    // method and field tokens: enough to see a call to DumpMaker without a decompiler.
    static HashSet<Type> UsedTypes(Type fixture)
    {
        var used = new HashSet<Type>();
        Type[] own = [fixture, .. fixture.GetNestedTypes(BindingFlags.NonPublic | BindingFlags.Public)];
        const BindingFlags all = BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public |
                                 BindingFlags.NonPublic | BindingFlags.DeclaredOnly;
        foreach (Type type in own)
            foreach (MethodBase method in type.GetMethods(all).Cast<MethodBase>().Concat(type.GetConstructors(all)))
            {
                byte[]? il = method.GetMethodBody()?.GetILAsByteArray();
                if (il is null)
                    continue;
                // Any 4-byte token after a call/newobj/ldsfld/ldfld/ldftn opcode; a byte that only looks like one
                // resolves to nothing (ResolveMember throws) and is skipped.
                for (int i = 0; i + 4 < il.Length; i++)
                {
                    if (il[i] is not (0x28 or 0x6F or 0x73 or 0x7E or 0x7B))
                        continue;
                    int token = BitConverter.ToInt32(il, i + 1);
                    try
                    {
                        if (method.Module.ResolveMember(token, type.GetGenericArguments(), null)?.DeclaringType is { } t)
                            used.Add(t);
                    }
                    catch (ArgumentException) { }
                    catch (BadImageFormatException) { }
                }
            }
        return used;
    }
}
