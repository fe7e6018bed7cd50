using System.Globalization;
using DiagExt.Fuzz.Targets;

namespace DiagExt.AflHarness;

/// <summary>
/// DiagExt.AflHarness fuzz|prepare: the AFL++ side of the fuzz targets. Run under afl-fuzz (or afl-showmap, afl-tmin)
/// with an instrumented DiagExt.Core beside it; run without AFL it executes the one input on stdin.
/// </summary>
public static class HarnessCommandLine
{
    private const string Usage = """
        usage: DiagExt.AflHarness <command> ...
          fuzz <target>                            SharpFuzz's fork server: one input from stdin per execution,
                                                   a failed property or undocumented exception is an AFL crash
          prepare <target> <dir> [--max-bytes N]   write afl-fuzz's inputs for the target: <dir>/seeds (built-in seeds,
                                                   artifacts/fuzz/seeds/<target>, tests/Fuzz/corpus/<target>, each no
                                                   larger than N bytes, default 262144) and <dir>/tokens.dict (its tokens)
        targets: minidump, pe, elf, il, hashtable, dml, wcf
        """;

    public static int Run(string[] args, TextWriter output)
    {
        if (args.Length < 2)
        {
            output.WriteLine(Usage);
            return 2;
        }
        try
        {
            var target = TargetCatalog.Find(args[1]);
            switch (args[0])
            {
                case "fuzz":
                    AflEntry.Run(target);
                    return 0;
                case "prepare" when args.Length >= 3:
                    TraceBuffer.InstallIfInstrumented(); // built-in seeds run DiagExt.Core code (simulated tables, the WCF core)
                    int maxBytes = args.Length >= 5 && args[3] == "--max-bytes" ? int.Parse(args[4], CultureInfo.InvariantCulture) : SeedExport.DefaultMaxBytes;
                    output.WriteLine(SeedExport.Write(target, Path.Combine(args[2], "seeds"), maxBytes));
                    output.WriteLine(AflDictionary.Write(target, Path.Combine(args[2], "tokens.dict")));
                    return 0;
                default:
                    output.WriteLine(Usage);
                    return 2;
            }
        }
        catch (ArgumentException e)
        {
            output.WriteLine(e.Message);
            return 2;
        }
    }
}
