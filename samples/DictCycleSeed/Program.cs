// The program from ../shared/reference/dictionary-hang.txt, unchanged but for braces the blog lost.
// On .NET Framework it hangs; on .NET Core 3.1+ a lookup on the looping chain throws and the process
// dies of the unhandled exception. The tests run it with DOTNET_DbgEnableMiniDump=1, so the runtime's
// createdump writes a full dump at that moment: a dump of a process running the seed's program.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace ConcurrentDictionary
{
    class Program
    {
        static Dictionary<string, int> _dict = new();

        static void Modify()
        {
            for (int i = 0; i < 10; i++)
            {
                string key = $"Key {i}";
                _dict[key] = 1;
            }
        }

        static void Main(string[] args)
        {
            for (int k = 0; k < 1_000_000; k++)
            {
                if (k % 100 == 0)
                {
                    Console.WriteLine($"Modify Run {k}");
                }

                Parallel.Invoke(Modify, Modify, Modify);
            }
        }
    }
}
