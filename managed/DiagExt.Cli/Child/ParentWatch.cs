using System.Globalization;

namespace DiagExt.Cli.Child;

/// <summary>
/// In a child diagext (<see cref="ChildDiagext"/>): ends it when the diagext that started it is gone (killed, so it
/// could not stop its children), instead of leaving it to run on for nobody.
/// </summary>
public static class ParentWatch
{
    private static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);

    public static void StartIfChild(Action<string> abort)
    {
        if (ChildDiagext.ParentId is not int parent)
            return;
        var thread = new Thread(() =>
        {
            while (IsAlive(parent))
                Thread.Sleep(Interval);
            abort("the diagext that started this analysis is gone");
        })
        {
            IsBackground = true,
            Name = "diagext parent watch",
        };
        thread.Start();
    }

    private static bool IsAlive(int pid)
    {
        if (OperatingSystem.IsLinux())
            return ParentOfSelf() == pid; // re-parented to init or a subreaper: the batch has exited
        try
        {
            using var process = System.Diagnostics.Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException)
        {
            return false;
        }
    }

    /// <summary>Field 4 of /proc/self/stat, counted after the ")" that ends the command name.</summary>
    private static int ParentOfSelf()
    {
        try
        {
            string stat = File.ReadAllText("/proc/self/stat");
            string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return int.Parse(fields[1], CultureInfo.InvariantCulture);
        }
        catch (Exception e) when (e is IOException or FormatException or IndexOutOfRangeException or ArgumentOutOfRangeException)
        {
            return -1;
        }
    }
}
