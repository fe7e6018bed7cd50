namespace DiagExt.Cli.CommandLine;

/// <summary>"did you mean ...?" for a mistyped command or option: the closest known name within two edits, if one is.</summary>
public static class Suggestion
{
    public static string For(string typed, IEnumerable<string> known)
    {
        string? best = null;
        int bestDistance = int.MaxValue;
        foreach (string name in known)
        {
            int distance = Distance(typed, name);
            if (distance < bestDistance)
                (best, bestDistance) = (name, distance);
        }
        return best is not null && bestDistance <= Math.Min(2, best.Length / 2) ? $"; did you mean '{best}'?" : "";
    }

    /// <summary>Levenshtein distance, on the short strings a command line holds (capped, so a pasted blob costs nothing).</summary>
    private static int Distance(string a, string b)
    {
        if (a.Length > 64 || b.Length > 64)
            return int.MaxValue;
        int[] previous = Enumerable.Range(0, b.Length + 1).ToArray(), current = new int[b.Length + 1];
        for (int i = 1; i <= a.Length; i++)
        {
            current[0] = i;
            for (int j = 1; j <= b.Length; j++)
                current[j] = Math.Min(Math.Min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1));
            (previous, current) = (current, previous);
        }
        return previous[b.Length];
    }
}
