using System.Diagnostics;
using System.Text.RegularExpressions;

namespace DiagExt.Fuzz.Engine;

/// <summary>
/// Runs one input through a target and classifies what happened: a documented rejection, a property violation, an
/// undocumented exception, or more memory than the input can justify. Hangs are the watchdog's business.
/// </summary>
public static partial class Executor
{
    /// <summary>An input may allocate this much plus <see cref="BytesPerInputByte"/> times its size.</summary>
    public const long BaseAllocationBudget = 256L * 1024 * 1024;

    public const long BytesPerInputByte = 16;

    public static long AllocationBudget(int inputLength) => BaseAllocationBudget + BytesPerInputByte * inputLength;

    public static ExecResult Run(IFuzzTarget target, ReadOnlyMemory<byte> input)
    {
        long before = GC.GetAllocatedBytesForCurrentThread();
        var watch = Stopwatch.StartNew();
        string signature;
        Failure? failure = null;
        try
        {
            signature = target.Execute(input);
        }
        catch (PropertyViolation v)
        {
            signature = "violation";
            failure = new Failure(FailureKind.Property, $"property: {v.Message.Split(':')[0]}", v.Message); // messages say the property before the first colon
        }
        catch (OutOfMemoryException e)
        {
            signature = "oom";
            failure = new Failure(FailureKind.Memory, $"memory: out of memory at {Site(e)}", e.ToString());
        }
        catch (Exception e) when (target.IsDocumentedRejection(e))
        {
            signature = $"rejected:{e.GetType().Name}@{Site(e)}";
        }
        catch (Exception e)
        {
            signature = "crash";
            failure = new Failure(FailureKind.Crash, $"crash: {e.GetType().Name} at {Site(e)}", e.ToString());
        }
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        if (failure is null && allocated > AllocationBudget(input.Length))
            failure = new Failure(FailureKind.Memory, $"memory: over budget in {target.Name}",
                $"allocated {allocated / (1024 * 1024)} MB for an input of {input.Length:N0} bytes (budget {AllocationBudget(input.Length) / (1024 * 1024)} MB)");
        return new ExecResult(signature, failure, allocated, watch.Elapsed);
    }

    /// <summary>Where an exception was thrown: the innermost DiagExt frames, which tell one defect from another.</summary>
    public static string Site(Exception e)
    {
        var frames = new StackTrace(e, false).GetFrames()
            .Select(f => f.GetMethod())
            .Where(m => m?.DeclaringType?.FullName?.StartsWith("DiagExt.Core", StringComparison.Ordinal) == true)
            .Take(2)
            .Select(m => $"{m!.DeclaringType!.Name}.{(m.Name.Contains('<') ? "lambda" : m.Name)}");
        string site = string.Join("<", frames);
        return site.Length > 0 ? site : new StackTrace(e, false).GetFrame(0)?.GetMethod()?.Name ?? "?";
    }

    /// <summary>A message with its numbers removed, so one defect hit with different values is one signature.</summary>
    public static string Template(string message) => Numbers().Replace(message.Length > 160 ? message[..160] : message, "N");

    [GeneratedRegex(@"(0x)?[0-9a-fA-F]*[0-9][0-9a-fA-F]*")]
    private static partial Regex Numbers();
}
