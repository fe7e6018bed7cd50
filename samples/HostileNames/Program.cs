// A target that attacks its analyser: a type defined at run time (Reflection.Emit) whose name, static
// field name and method name carry DML and debugger commands (a <link cmd=".shell ..."> that would
// run a shell command when clicked), entities, quotes, newlines, escape sequences and bidi controls.
// Three threads corrupt a Dictionary keyed by that type, as in DictCycle, and two keep hammering it
// through the hostile method, so the name reaches every part of a dictcycle report: the title, the
// instance line, the static holder and the threads' frames. Prints "READY <pid>" when corrupt.
using System.Collections;
using System.Reflection;
using System.Reflection.Emit;
using System.Runtime.Loader;

const string Injection = "<link cmd=\".shell -ci \\\"calc\\\" cmd /c echo PWNED\">click me</link>";
string typeName = $"Evil{Injection}&amp;&#39;\"'\n\rLINE2\u001b[31mRED\u202eRTL\u2066\u200fX";
string fieldName = $"Field<b>{Injection}\nF";
string methodName = $"Hammer{Injection}\u202e";

// Emitted with PersistedAssemblyBuilder and loaded as a normal in-memory assembly: its metadata is then
// in the dump like any module's, so readers resolve the names (a Run-only dynamic module's are not),
// and .NET under Wine crashed in DynamicResolver finalizers with the Run-only kind.
var assembly = new PersistedAssemblyBuilder(new AssemblyName("Hostile"), typeof(object).Assembly);
TypeBuilder builder = assembly.DefineDynamicModule("Hostile").DefineType(typeName, TypeAttributes.Public | TypeAttributes.Class);
builder.DefineDefaultConstructor(MethodAttributes.Public);
builder.DefineField(fieldName, typeof(IDictionary), FieldAttributes.Public | FieldAttributes.Static);
EmitHammer(builder, methodName);
builder.CreateType();
var image = new MemoryStream();
assembly.Save(image);
image.Position = 0;
Type hostile = AssemblyLoadContext.Default.LoadFromStream(image).GetTypes().Single(); // GetType(name) would parse the name
FieldInfo holder = hostile.GetField(fieldName)!;
var hammer = hostile.GetMethod(methodName)!.CreateDelegate<Action<IDictionary, object, object>>();
object[] keys = Enumerable.Range(0, 10).Select(_ => Activator.CreateInstance(hostile)!).ToArray();
Console.WriteLine($"HostileNames: corrupting a Dictionary<{typeName.Length}-char emitted type, int> with three concurrent writers");

IDictionary dict = NewDictionary();
for (int run = 0; ; run++)
{
    dict = NewDictionary();
    holder.SetValue(null, dict);
    Parallel.Invoke(Modify, Modify, Modify);
    if (LookupsLoop())
    {
        Console.WriteLine($"corrupt after {run + 1} runs");
        break;
    }
}

for (int i = 0; i < 2; i++)
    new Thread(Hammer) { IsBackground = true }.Start();
Console.WriteLine($"READY {Environment.ProcessId}");
Thread.Sleep(Timeout.Infinite);

IDictionary NewDictionary() => (IDictionary)Activator.CreateInstance(typeof(Dictionary<,>).MakeGenericType(hostile, typeof(int)))!;

void Modify()
{
    foreach (object key in keys)
    {
        try
        {
            dict[key] = 1;
        }
        catch (Exception)
        {
            // A concurrent writer broke it mid-insert: carry on, as DictCycle's writers do.
        }
    }
}

bool LookupsLoop()
{
    try
    {
        foreach (object key in keys)
            dict.Contains(key);
        return false;
    }
    catch (InvalidOperationException)
    {
        return true; // .NET detects the loop in a chain and throws
    }
    catch (Exception)
    {
        return false;
    }
}

// Keeps hammering with the keys whose lookups still work, so the threads stay inside the dictionary's
// code without throwing: a thread that throws in a loop allocates without end, and .NET under Wine
// died within seconds of such a GC storm ("Internal CLR error" in the finalizer thread).
void Hammer()
{
    object one = 1;
    var working = new List<object>(keys);
    while (true)
    {
        for (int i = working.Count - 1; i >= 0; i--)
        {
            try
            {
                hammer(dict, working[i], one);
            }
            catch (Exception)
            {
                if (working.Count > 1)
                    working.RemoveAt(i);
            }
        }
    }
}

// static void <methodName>(IDictionary d, object key, object value) { if (d.Contains(key)) d[key] = value; }
// Emitted, so the hostile method name is on the hammering threads' stacks.
static void EmitHammer(TypeBuilder type, string name)
{
    MethodBuilder method = type.DefineMethod(name, MethodAttributes.Public | MethodAttributes.Static, typeof(void), [typeof(IDictionary), typeof(object), typeof(object)]);
    ILGenerator il = method.GetILGenerator();
    il.Emit(OpCodes.Ldarg_0);
    il.Emit(OpCodes.Ldarg_1);
    il.Emit(OpCodes.Callvirt, typeof(IDictionary).GetMethod(nameof(IDictionary.Contains))!);
    // Write only keys the lookup found: adding a lost key would grow the table into a resize that heals the loop.
    Label done = il.DefineLabel();
    il.Emit(OpCodes.Brfalse_S, done);
    il.Emit(OpCodes.Ldarg_0);
    il.Emit(OpCodes.Ldarg_1);
    il.Emit(OpCodes.Ldarg_2);
    il.Emit(OpCodes.Callvirt, typeof(IDictionary).GetProperty("Item")!.GetSetMethod()!);
    il.MarkLabel(done);
    il.Emit(OpCodes.Ret);
}
