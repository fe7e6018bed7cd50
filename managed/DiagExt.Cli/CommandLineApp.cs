using DiagExt.Cli.CommandLine;
using DiagExt.Cli.Commands;
using DiagExt.Core.Errors;

namespace DiagExt.Cli;

/// <summary>
/// Dispatches a command line to its command and turns every failure into one line on stderr and a
/// documented exit code. Unexpected errors keep their stack trace out of the user's face unless
/// DIAGEXT_DEBUG=1 is set.
/// </summary>
public static class CommandLineApp
{
    public static int Run(IReadOnlyList<string> args, CommandIo io)
    {
        // --dml-console (the WinDbg extension) may stand anywhere before "--"; every command honours it.
        int end = args.ToList().IndexOf("--");
        if (end < 0)
            end = args.Count;
        bool dmlConsole = args.Take(end).Contains(DmlConsoleWriter.Option);
        if (dmlConsole)
            io = io with { Out = new DmlConsoleWriter(io.Out) };
        try
        {
            return Run(args.Where((a, i) => i >= end || a != DmlConsoleWriter.Option).ToList(), io with { CommandLine = args });
        }
        finally
        {
            io.Out.Flush();
        }
    }

    private static int Run(List<string> args, CommandIo io)
    {
        try
        {
            return (int)Dispatch(args, io);
        }
        catch (OperationCanceledException)
        {
            io.Error.WriteLine("diagext: cancelled");
            return (int)ExitCode.Cancelled;
        }
        catch (UsageException e)
        {
            io.Error.WriteLine($"diagext: {OneLine(e.Message)} (see 'diagext help')");
            return (int)ExitCode.InputError;
        }
        catch (Exception e) when (e is DiagExtException or InvalidDataException)
        {
            // InvalidDataException: data read from the target that contradicts itself, found after opening.
            io.Error.WriteLine($"diagext: {OneLine(e is DiagExtException known ? RemedyWords.Message(known) : e.Message)}");
            return (int)ExitCode.InputError;
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            io.Error.WriteLine($"diagext: internal error: {e.GetType().Name}: {OneLine(e.Message)} (set DIAGEXT_DEBUG=1 for details)");
            if (Environment.GetEnvironmentVariable("DIAGEXT_DEBUG") == "1")
                io.Error.WriteLine(e.ToString());
            return (int)ExitCode.InputError;
        }
    }

    private static readonly Lazy<SystemCommandLineAdapter> Parser =
        new(() => new SystemCommandLineAdapter(CommandCatalog.All, [CommonOptions.Help, VersionCommand.Flag]));

    private static ExitCode Dispatch(IReadOnlyList<string> args, CommandIo io)
    {
        SystemCommandLineAdapter.Request request = Parser.Value.Parse(args);
        if (request.Completion is { } complete)
        {
            complete(io.Out);
            return ExitCode.NothingFound;
        }
        ICommand? command = request.Command;
        ParsedArguments parsed = request.Arguments;
        if (command is null)
        {
            if (parsed.Has(VersionCommand.Flag.Name))
                return CommandCatalog.Find("version")!.Execute(ParsedArguments.None, io);
            bool asked = parsed.Has(CommonOptions.Help.Name);
            (asked ? io.Out : io.Error).Write(HelpCommand.Overview(CommandCatalog.All));
            return asked ? ExitCode.NothingFound : ExitCode.InputError;
        }
        if (parsed.Has(CommonOptions.Help.Name))
        {
            // With --format dml every line on stdout is DML, help included; a DML console escapes it itself.
            string help = HelpCommand.For(command);
            if (parsed.Value(CommonOptions.Format.Name) == "dml")
                io.Markup.Write(HelpCommand.AsDml(help));
            else
                io.Out.Write(help);
            return ExitCode.NothingFound;
        }
        return command.Execute(ProcessName.Resolve(parsed), io);
    }

    private static string OneLine(string message) => message.ReplaceLineEndings(" ").Trim();
}
