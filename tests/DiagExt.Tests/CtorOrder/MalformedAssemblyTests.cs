using System.Reflection;
using System.Reflection.Emit;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.CtorOrder;

/// <summary>
/// A real assembly written with PersistedAssemblyBuilder whose IL is invalid in one method (stack
/// underflow, a branch into the middle of an instruction): that method is named in one note line and
/// skipped; the valid method beside it is still reported.
/// </summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public class MalformedAssemblyTests
{
    [Test]
    public void Invalid_il_costs_one_method_and_one_line()
    {
        string path = Path.Combine(Repo.WorkDirectory, "ctororder-malformed", "Malformed.dll");
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        Write(path);

        Diagext.Result result = Diagext.Run("ctororder", "--assembly", path, "--json");

        Assert.That(result.ExitCode, Is.EqualTo(1), result.Stderr);
        Assert.That(result.Stderr, Is.Empty);
        Assert.That(result.Findings.Select(f => f.GetProperty("callSite").GetProperty("method").GetString()), Is.EqualTo(new[] { "Malformed.Picks.Good(Type)" }));
        string note = result.Json.GetProperty("detectors")[0].GetProperty("reason").GetString()!;
        Assert.That(note, Does.Contain("2 unreadable"));
        Assert.That(note, Does.Contain("stack underflow"));
        Assert.That(note, Does.Contain("not an instruction"));
    }

    private static void Write(string path)
    {
        var builder = new PersistedAssemblyBuilder(new AssemblyName("Malformed"), typeof(object).Assembly);
        ModuleBuilder module = builder.DefineDynamicModule("Malformed");
        TypeBuilder type = module.DefineType("Malformed.Picks", TypeAttributes.Public | TypeAttributes.Abstract | TypeAttributes.Sealed);
        MethodInfo getConstructors = typeof(Type).GetMethod(nameof(Type.GetConstructors), Type.EmptyTypes)!;

        ILGenerator good = Method(type, "Good");
        good.Emit(OpCodes.Ldarg_0);
        good.Emit(OpCodes.Callvirt, getConstructors);
        good.Emit(OpCodes.Ldc_I4_0);
        good.Emit(OpCodes.Ldelem_Ref);
        good.Emit(OpCodes.Ret);

        ILGenerator underflow = Method(type, "Underflow");
        underflow.Emit(OpCodes.Callvirt, getConstructors); // no receiver on the stack
        underflow.Emit(OpCodes.Ldc_I4_0);
        underflow.Emit(OpCodes.Ldelem_Ref);
        underflow.Emit(OpCodes.Ret);

        ILGenerator badBranch = Method(type, "BadBranch");
        badBranch.Emit(OpCodes.Ldarg_0);
        badBranch.Emit(OpCodes.Callvirt, getConstructors);
        badBranch.Emit(OpCodes.Pop);
        badBranch.Emit(OpCodes.Br_S, (sbyte)1); // lands inside the 5-byte ldc.i4 that follows
        badBranch.Emit(OpCodes.Ldc_I4, 12345);
        badBranch.Emit(OpCodes.Pop);
        badBranch.Emit(OpCodes.Ldnull);
        badBranch.Emit(OpCodes.Ret);

        type.CreateType();
        builder.Save(path);
    }

    private static ILGenerator Method(TypeBuilder type, string name) =>
        type.DefineMethod(name, MethodAttributes.Public | MethodAttributes.Static, typeof(ConstructorInfo), [typeof(Type)]).GetILGenerator();
}
