// The seed's program (../shared/reference/dictionary-hang.txt): three threads write the same keys into one
// static Dictionary. It runs until the dictionary's chains loop (on .NET a lookup then throws
// InvalidOperationException; on .NET Framework it would spin forever), keeps the corrupt instance alive
// with threads still hammering it, as a stuck service would, and prints "READY <pid>" for the tests to dump it.
//
//   DictCycle            a Dictionary<string, int> (the seed)
//   DictCycle --hashset  a HashSet<string> corrupted the same way

bool hashSet = args.Contains("--hashset");
Console.WriteLine($"DictCycle: corrupting a {(hashSet ? "HashSet<string>" : "Dictionary<string, int>")} with three concurrent writers");
ICorruptible target = hashSet ? new SetTarget() : new DictionaryTarget();

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

for (int i = 0; i < 2; i++)
    new Thread(target.Hammer) { IsBackground = true, Name = $"hammer-{i}" }.Start();
Console.WriteLine($"READY {Environment.ProcessId}");
Thread.Sleep(Timeout.Infinite);

interface ICorruptible
{
    void Reset();

    void Modify();

    /// <summary>True when a lookup hits a loop in the chains (.NET detects it and throws).</summary>
    bool LookupsLoop();

    void Hammer();
}

sealed class DictionaryTarget : ICorruptible
{
    // Static, as in the seed: the dump shows who holds it.
    public static Dictionary<string, int> Dict = new();

    public void Reset() => Dict = new();

    public void Modify()
    {
        for (int i = 0; i < 10; i++)
        {
            string key = $"Key {i}";
            try
            {
                Dict[key] = 1;
            }
            catch (Exception)
            {
                // A concurrent writer broke it mid-insert: carry on, as the seed's threads would.
            }
        }
    }

    public bool LookupsLoop()
    {
        try
        {
            for (int i = 0; i < 10; i++)
                Dict.ContainsKey($"Key {i}");
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
        while (true)
        {
            for (int i = 0; i < 10; i++)
            {
                try
                {
                    Dict.TryGetValue($"Key {i}", out _);
                    Dict[$"Key {i}"] = i;
                }
                catch (Exception)
                {
                    // Each lookup that reaches the loop throws; a real service logs and retries.
                }
            }
        }
    }
}

sealed class SetTarget : ICorruptible
{
    public static HashSet<string> Set = new();

    public void Reset() => Set = new();

    public void Modify()
    {
        for (int i = 0; i < 10; i++)
        {
            try
            {
                Set.Add($"Key {i}");
            }
            catch (Exception)
            {
            }
        }
    }

    public bool LookupsLoop()
    {
        try
        {
            for (int i = 0; i < 10; i++)
                Set.Contains($"Key {i}");
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
        while (true)
        {
            for (int i = 0; i < 10; i++)
            {
                try
                {
                    Set.Contains($"Key {i}");
                    Set.Add($"Key {i}");
                }
                catch (Exception)
                {
                }
            }
        }
    }
}
