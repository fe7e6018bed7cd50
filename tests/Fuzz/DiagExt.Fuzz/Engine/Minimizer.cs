using System.Diagnostics;

namespace DiagExt.Fuzz.Engine;

/// <summary>
/// Shrinks a failing input while it keeps failing the same way: cuts the tail, then zeroes ever smaller chunks
/// (dumps are full of offsets, so zeroing keeps the structure where deleting would shift it), then deletes chunks
/// of small inputs. Failures that kill or hang a process are checked in a child process.
/// </summary>
public sealed class Minimizer(IFuzzTarget target, Func<byte[], string?> failureOf, TextWriter log)
{
    private const int MinZeroChunk = 16;
    private const int MinDeleteChunk = 16;

    /// <summary>The failure signature of an input run in-process (null: it passes).</summary>
    public static Func<byte[], string?> InProcess(IFuzzTarget target) => input => Executor.Run(target, input).Failure?.Signature;

    /// <summary>Runs "replay" in a child process: for failures that end the process.</summary>
    public static Func<byte[], string?> InChildProcess(string target, string scratch, TimeSpan timeout) => input =>
    {
        File.WriteAllBytes(scratch, input);
        var start = new ProcessStartInfo(Environment.ProcessPath!) { RedirectStandardOutput = true, RedirectStandardError = true };
        if (Path.GetFileNameWithoutExtension(Environment.ProcessPath!) == "dotnet")
            start.ArgumentList.Add(typeof(Minimizer).Assembly.Location);
        foreach (string arg in new[] { "replay", target, scratch })
            start.ArgumentList.Add(arg);
        using var process = Process.Start(start)!;
        Task<string> stdout = process.StandardOutput.ReadToEndAsync();
        _ = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(timeout))
        {
            process.Kill(entireProcessTree: true);
            return $"hang: {target}";
        }
        return process.ExitCode switch
        {
            0 => null,
            1 => stdout.Result.Split('\n').FirstOrDefault(l => l.StartsWith("FAIL ", StringComparison.Ordinal))?.Split(' ', 3)[^1].Trim(),
            _ => $"died: exit code {process.ExitCode}",
        };
    };

    public byte[] Minimize(byte[] input)
    {
        string expected = failureOf(input) ?? throw new InvalidOperationException($"{target.Name}: the input does not fail");
        log.WriteLine($"minimizing {input.Length:N0} bytes failing with: {expected}");
        bool Fails(byte[] candidate) => failureOf(candidate) == expected;

        input = CutTail(input, Fails);
        for (int chunk = Math.Max(MinZeroChunk, PowerOfTwoBelow(input.Length) / 2); chunk >= MinZeroChunk; chunk /= 2)
            input = ZeroChunks(input, chunk, Fails);
        // Deleting shifts every offset after the cut, so it rarely keeps a structured input failing: small inputs, big chunks.
        if (input.Length <= 64 * 1024)
            for (int chunk = Math.Max(MinDeleteChunk, input.Length / 4); chunk >= MinDeleteChunk; chunk /= 2)
                input = DeleteChunks(input, chunk, Fails);
        log.WriteLine($"minimized to {input.Length:N0} bytes ({input.Count(b => b != 0):N0} non-zero)");
        return input;
    }

    private static byte[] CutTail(byte[] input, Func<byte[], bool> fails)
    {
        int lo = 0, hi = input.Length; // fails at hi
        while (lo < hi)
        {
            int mid = lo + (hi - lo) / 2;
            if (fails(input[..mid]))
                hi = mid;
            else
                lo = mid + 1;
        }
        return input[..hi];
    }

    private byte[] ZeroChunks(byte[] input, int chunk, Func<byte[], bool> fails)
    {
        for (int at = 0; at < input.Length; at += chunk)
        {
            int n = Math.Min(chunk, input.Length - at);
            if (!input.AsSpan(at, n).ContainsAnyExcept((byte)0))
                continue;
            byte[] candidate = (byte[])input.Clone();
            Array.Clear(candidate, at, n);
            if (fails(candidate))
                input = candidate;
        }
        log.WriteLine($"  zeroed in chunks of {chunk}: {input.Count(b => b != 0):N0} non-zero bytes left");
        return input;
    }

    private static byte[] DeleteChunks(byte[] input, int chunk, Func<byte[], bool> fails)
    {
        for (int at = 0; at < input.Length;)
        {
            byte[] candidate = [.. input[..at], .. input[Math.Min(input.Length, at + chunk)..]];
            if (candidate.Length < input.Length && fails(candidate))
                input = candidate;
            else
                at += chunk;
        }
        return input;
    }

    private static int PowerOfTwoBelow(int n)
    {
        int p = 1;
        while (p * 2 <= n)
            p *= 2;
        return p;
    }
}
