using DiagExt.Core.Errors;

namespace DiagExt.Cli.Child;

/// <summary>How a child diagext ended: its exit code, what it wrote to stderr, and whether it was killed.</summary>
public sealed record ChildExit(int Code, string Errors, bool Killed)
{
    private const int MaxErrorChars = 64 * 1024;

    /// <summary>It ended by itself with one of diagext's documented exit codes (<see cref="ExitCode"/>).</summary>
    public bool Documented => !Killed && Enum.IsDefined(typeof(ExitCode), Code);

    /// <summary>The last line it wrote to stderr (its one-line reason on exit code 2), without the "diagext: " prefix.</summary>
    public string LastError
    {
        get
        {
            string tail = Errors.Length > MaxErrorChars ? Errors[^MaxErrorChars..] : Errors;
            string line = tail.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).LastOrDefault() ?? "the analysis failed without a message";
            return line.StartsWith("diagext: ", StringComparison.Ordinal) ? line["diagext: ".Length..] : line;
        }
    }

    /// <summary>Why it died, in one line (from the signal or exit code and its stderr).</summary>
    public string Crash(long? memoryBudget) => ChildCrash.Describe(Code, Errors, memoryBudget);
}
