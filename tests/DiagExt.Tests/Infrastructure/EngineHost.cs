using System.Globalization;

namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// Runs tests/native/engine-host.cpp under Wine: Microsoft's dbgeng.dll opens a dump (or attaches to a
/// process), executes debugger commands and reports every output line with its kind, exactly what a
/// WinDbg user would see in the command window.
/// </summary>
public static class EngineHost
{
    public sealed record Options
    {
        /// <summary>"amd64" (64-bit engine) or "x86" (32-bit engine and host).</summary>
        public string Arch { get; init; } = "amd64";

        /// <summary>Ask for plain text, as cdb does: the engine converts DML to text itself.</summary>
        public bool TextOnly { get; init; }

        /// <summary>Press Ctrl+Break this long into the last command.</summary>
        public TimeSpan? InterruptAfter { get; init; }

        public TimeSpan Timeout { get; init; } = TimeSpan.FromMinutes(5);

        /// <summary>Variables the debugger (and so diagext, which inherits them) gets besides the prefix's.</summary>
        public IReadOnlyDictionary<string, string>? Environment { get; init; }
    }

    public static Session OpenDump(string dump, IEnumerable<string> commands, Options? options = null) =>
        Run([WinePrefix.WindowsPath(dump)], commands, options ?? new Options());

    public static Session Attach(int windowsPid, IEnumerable<string> commands, Options? options = null) =>
        Run(["--attach", windowsPid.ToString(CultureInfo.InvariantCulture)], commands, options ?? new Options());

    private static Session Run(string[] target, IEnumerable<string> commands, Options options)
    {
        string host = MingwBuild.Program("engine-host.cpp", x86: options.Arch == "x86");
        var args = new List<string> { WinePrefix.WindowsPath(DbgEngPackage.Engine(options.Arch)) };
        args.AddRange(target);
        if (options.TextOnly)
            args.Add("--text");
        if (options.InterruptAfter is TimeSpan delay)
            args.AddRange(["--interrupt-after", ((int)delay.TotalMilliseconds).ToString(CultureInfo.InvariantCulture)]);
        args.AddRange(commands);
        ProcessRunner.Result result = WinePrefix.Run(host, args, options.Timeout, options.Environment);
        return Session.Parse(result);
    }

    /// <summary>One line of debugger output: D = DML, T = text, E = error, W = warning, V = verbose, O = other.</summary>
    public sealed record Line(char Kind, string Text)
    {
        public override string ToString() => $"{Kind}|{Text}";
    }

    public sealed record Command(string Text, IReadOnlyList<Line> Lines, uint HResult, int ElapsedMs)
    {
        public IEnumerable<string> Errors => Lines.Where(l => l.Kind == 'E').Select(l => l.Text);

        public IEnumerable<Line> NonEmpty => Lines.Where(l => l.Text.Trim().Length > 0);

        /// <summary>The lines the engine received as DML, joined.</summary>
        public string Dml => string.Join('\n', Lines.Where(l => l.Kind == 'D').Select(l => l.Text));

        /// <summary>For the output of "~" (". 0  Id: 1a0.1a4 Suspend: ..."): the OS thread ids it lists, in hex.</summary>
        public IReadOnlySet<string> ListedThreadIds => Lines.Select(l => System.Text.RegularExpressions.Regex.Match(l.Text, @"Id: [0-9a-f]+\.([0-9a-f]+)"))
            .Where(m => m.Success).Select(m => m.Groups[1].Value).ToHashSet();

        public override string ToString() => $"{Text} -> 0x{HResult:x8} in {ElapsedMs} ms\n{string.Join('\n', Lines)}";
    }

    public sealed record Session(bool Opened, IReadOnlyList<Command> Commands, string Raw, int ExitCode)
    {
        /// <summary>Processes the host started (an extension's helpers) still running after the last command.</summary>
        public IReadOnlyList<string> ChildrenLeft => Raw.Split('\n').Where(l => l.StartsWith("@@@ CHILD ", StringComparison.Ordinal))
            .Select(l => l["@@@ CHILD ".Length..].TrimEnd('\r')).ToList();

        public Command this[string command] => Commands.FirstOrDefault(c => c.Text == command)
            ?? throw new KeyNotFoundException($"no command '{command}' in the session:\n{Raw}");

        public static Session Parse(ProcessRunner.Result result)
        {
            var commands = new List<Command>();
            bool opened = false;
            string? current = null;
            var lines = new List<Line>();
            foreach (string raw in result.Stdout.Split('\n'))
            {
                string line = raw.TrimEnd('\r');
                if (line == "@@@ OPENED")
                    opened = true;
                else if (line.StartsWith("@@@ EXECUTE ", StringComparison.Ordinal))
                {
                    current = line["@@@ EXECUTE ".Length..];
                    lines = [];
                }
                else if (line.StartsWith("@@@ HRESULT ", StringComparison.Ordinal) && current is not null)
                {
                    string[] parts = line.Split(' ');
                    commands.Add(new Command(current, lines, uint.Parse(parts[2][2..], NumberStyles.HexNumber, CultureInfo.InvariantCulture),
                        int.Parse(parts[3], CultureInfo.InvariantCulture)));
                    current = null;
                }
                else if (current is not null && line.Length >= 2 && line[1] == '|')
                    lines.Add(new Line(line[0], line[2..]));
            }
            return new Session(opened, commands, result.Stdout + result.Stderr, result.ExitCode);
        }
    }
}
