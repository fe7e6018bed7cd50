// The seed's program (../shared/reference/dictionary-hang.txt): three threads write the same keys into one
// static Dictionary. It runs until the dictionary's chains loop (on .NET a lookup then throws
// InvalidOperationException; on .NET Framework it would spin forever), keeps the corrupt instance alive
// with threads still hammering it, as a stuck service would, and prints "READY <pid>" for the tests to dump it.
//
//   DictCycle            a Dictionary<string, int> (the seed)
//   DictCycle --hashset  a HashSet<string> corrupted the same way

bool hashSet = args.Contains("--hashset");
Console.WriteLine($"DictCycle: corrupting a {(hashSet ? "HashSet<string>" : "Dictionary<string, int>")} with three concurrent writers");
Corruptor target = hashSet
    ? new(() => SetTarget.Set = new(), key => SetTarget.Set.Add(key), key => SetTarget.Set.Contains(key))
    : new(() => DictionaryTarget.Dict = new(), key => DictionaryTarget.Dict[key] = 1, key => DictionaryTarget.Dict.ContainsKey(key));

for (int run = 0; ; run++)
{
    if (run % 10_000 == 0)
        Console.WriteLine($"Modify Run {run}");
    target.Reset();
    Parallel.Invoke(target.Modify, target.Modify, target.Modify);
    if (target.LookupsLoop())
    {
        Console.WriteLine($"corrupt after {run + 1} runs: lookups throw InvalidOperationException");
        break;
    }
}

for (int i = 0; i < 3; i++)
    new Thread(target.Hammer) { IsBackground = true, Name = $"hammer-{i}" }.Start();
Console.WriteLine($"READY {Environment.ProcessId}");
Thread.Sleep(Timeout.Infinite);

/// <summary>Holds the corrupt Dictionary in a static field, as in the seed: the dump shows who holds it.</summary>
static class DictionaryTarget
{
    public static Dictionary<string, int> Dict = new();
}

static class SetTarget
{
    public static HashSet<string> Set = new();
}

/// <summary>The seed's writers and a service's readers, over whichever collection the delegates touch.</summary>
sealed class Corruptor(Action reset, Action<string> write, Func<string, bool> lookup)
{
    private static readonly string[] Keys = Enumerable.Range(0, 10).Select(i => $"Key {i}").ToArray();

    public void Reset() => reset();

    public void Modify()
    {
        foreach (string key in Keys)
        {
            try
            {
                write(key);
            }
            catch (Exception)
            {
                // A concurrent writer broke it mid-insert: carry on, as the seed's threads would.
            }
        }
    }

    /// <summary>True when a lookup hits a loop in the chains (.NET detects it and throws).</summary>
    public bool LookupsLoop()
    {
        try
        {
            foreach (string key in Keys)
                lookup(key);
            return false;
        }
        catch (InvalidOperationException)
        {
            return true;
        }
        catch (Exception)
        {
            return false;
        }
    }

    public void Hammer()
    {
        // The keys whose lookups run into the loop, as the stuck service's requests do: on .NET Framework the
        // thread would spin in FindEntry for ever; on .NET Core 3+ the lookup walks the loop and throws from
        // inside FindValue, so either way the thread spends nearly all its time inside the corrupt instance's
        // methods, where a dump catches it (lookups that work are over too fast to be caught reliably).
        string[] looping = Keys.Where(key => !LookupWorks(key)).ToArray();
        string[] keys = looping.Length > 0 ? looping : Keys;
        while (true)
        {
            foreach (string key in keys)
            {
                try
                {
                    // Write only keys the lookup found: adding a lost key would grow the table until a
                    // resize rehashes every entry and heals the loop the tests are looking for.
                    if (lookup(key))
                        write(key);
                }
                catch (Exception)
                {
                    // A lookup that reaches the loop throws; a real service logs and retries.
                }
            }
        }
    }

    private bool LookupWorks(string key)
    {
        try
        {
            lookup(key);
            return true;
        }
        catch (Exception)
        {
            return false;
        }
    }
}
