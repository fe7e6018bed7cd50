// The control case: a busy .NET process with nothing wrong. Three threads update one Dictionary under a
// lock, as they should. Batch and attach tests use it where diagext must find no hazard (exit code 0) and
// must leave a process running. Prints "READY <pid>" once the threads run, then "tick N" every 100 ms.

var counts = new Dictionary<string, int>();
object gate = new();
long updates = 0;

for (int t = 0; t < 3; t++)
{
    new Thread(() =>
    {
        for (int i = 0; ; i++)
        {
            lock (gate)
            {
                string key = $"Key {i % 10}";
                counts[key] = counts.GetValueOrDefault(key) + 1;
                updates++;
            }
            if (i % 1000 == 0)
                Thread.Sleep(1);
        }
    }) { IsBackground = true, Name = $"writer-{t}" }.Start();
}

Console.WriteLine($"READY {Environment.ProcessId}");
for (int tick = 0; ; tick++)
{
    Thread.Sleep(100);
    lock (gate)
        Console.WriteLine($"tick {tick} updates {updates}");
}
