namespace DiagExt.Cli.Child;

/// <summary>Why an analysing diagext process died, in one line: from its exit code (128 + signal on Unix) and its stderr.</summary>
internal static class ChildCrash
{
    public static string Describe(int exitCode, string errors, long? memoryBudget)
    {
        string signal = !OperatingSystem.IsWindows() && exitCode > 128 ? SignalName(exitCode - 128) : $"exit code {exitCode}";
        if (errors.Contains("OutOfMemoryException", StringComparison.Ordinal))
            return memoryBudget is long budget
                ? $"the analysis ran out of memory ({signal}; each analysis may use at most --max-memory, {budget / (1024 * 1024):N0} MB)"
                : $"the analysis ran out of memory ({signal})";
        if (errors.Contains("Stack overflow", StringComparison.OrdinalIgnoreCase))
            return $"the analysis crashed with a stack overflow ({signal}), following data in this dump that loops: it is probably corrupt";
        return $"the analysing process crashed ({signal}), a fault inside ClrMD or the DAC while reading this dump: it is probably corrupt";
    }

    private static string SignalName(int signal) => signal switch
    {
        4 => "SIGILL",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        15 => "SIGTERM",
        _ => $"signal {signal}",
    };
}
