using System.CommandLine;
using System.CommandLine.Completions;
using System.CommandLine.Parsing;
using DiagExt.Cli.Commands;

namespace DiagExt.Cli.CommandLine;

/// <summary>
/// The one bridge to System.CommandLine, the parser dotnet-dump and dotnet-trace use. Each command's
/// <see cref="OptionSpec"/>s become a System.CommandLine command; a parse comes back as the
/// <see cref="ParsedArguments"/> commands read. From System.CommandLine: "--name value", "--name=value",
/// "--name:value", "-j4", bundled flags ("-qj4"), "--" ending the options, @response files (read by
/// <see cref="ResponseFiles"/>), and the [suggest:POSITION] directive through which dotnet-suggest completes.
/// Our rules on top, each one line and exit code 2:
/// <list type="bullet">
/// <item>an unknown option is an error with "did you mean" (System.CommandLine would take it for a file name);</item>
/// <item>an option given twice, a missing value, a value on a flag;</item>
/// <item>an optional value ("--json [FILE]") comes from "--json=FILE", or from the next argument only when
/// <see cref="OptionSpec.OptionalValueIf"/> accepts it (System.CommandLine would take any next argument).</item>
/// </list>
/// Help text is our own (<see cref="HelpCommand"/>): System.CommandLine only finds "-h", "-?" and "--help".
/// </summary>
public sealed class SystemCommandLineAdapter
{
    // How an optional value reaches System.CommandLine: always inline ("--json=..."), so it never takes the next
    // argument. No argument can hold NUL, so these cannot be typed.
    private const string NoValue = "\0";
    private const string EmptyValue = "\0\0";

    /// <summary>One System.CommandLine command and the specs it was built from; <see cref="Command"/> is null for diagext itself.</summary>
    private sealed record Mapping(ICommand? Command, IReadOnlyList<(OptionSpec Spec, Option Option)> Options, Argument<string[]>? Positionals);

    private readonly RootCommand _root = new();
    private readonly SuggestDirective _suggest;
    private readonly Dictionary<Command, Mapping> _mappings = [];
    private readonly Dictionary<string, OptionSpec> _byAlias = new(StringComparer.Ordinal);
    private readonly ParserConfiguration _configuration;

    /// <param name="rootOptions">What diagext accepts without a command: --help, --version.</param>
    public SystemCommandLineAdapter(IReadOnlyList<ICommand> commands, IReadOnlyList<OptionSpec> rootOptions)
    {
        _root.Options.Clear();
        _suggest = _root.Directives.OfType<SuggestDirective>().Single();
        _mappings[_root] = new Mapping(null, Add(_root, rootOptions), null);
        foreach (ICommand command in commands)
        {
            var built = new Command(command.Name, command.Summary);
            var positionals = new Argument<string[]>("arguments") { Arity = ArgumentArity.ZeroOrMore };
            built.Arguments.Add(positionals);
            _mappings[built] = new Mapping(command, Add(built, command.Options), positionals);
            _root.Subcommands.Add(built);
        }
        _configuration = new ParserConfiguration { ResponseFileTokenReplacer = ResponseFiles.Reader(Normalize) };
    }

    /// <summary>What a command line asks for: <see cref="Command"/> null is diagext itself (--help, --version, nothing).</summary>
    /// <param name="Completion">Set for dotnet-suggest's "[suggest:POSITION] 'command line'": writes the completions.</param>
    public sealed record Request(ICommand? Command, ParsedArguments Arguments, Action<TextWriter>? Completion = null);

    public Request Parse(IReadOnlyList<string> args)
    {
        ParseResult result = _root.Parse(Normalize(args), _configuration);
        if (result.GetResult(_suggest) is not null)
            return new Request(null, ParsedArguments.None, output => Complete(result, output));
        if (result.Tokens.FirstOrDefault(t => t.Type == TokenType.Directive) is { } directive)
            throw new UsageException($"unknown directive '{directive.Value}' (diagext knows [suggest:POSITION], which dotnet-suggest sends)");
        // Errors that belong to no command or option: a response file that cannot be read.
        if (result.Errors.FirstOrDefault(e => e.SymbolResult is null) is { } error)
            throw new UsageException(error.Message);
        Mapping mapping = _mappings[result.CommandResult.Command];
        if (mapping.Command is null && result.UnmatchedTokens.Count > 0)
            throw CommandCatalog.Unknown(result.UnmatchedTokens[0]);
        return new Request(mapping.Command, Read(result, mapping));
    }

    /// <summary>One command's arguments alone ("a.dmp --json"), as <see cref="Parse"/> gives them to it.</summary>
    public ParsedArguments Parse(ICommand command, IReadOnlyList<string> args) =>
        Parse([command.Name, .. args]).Arguments;

    private IReadOnlyList<(OptionSpec, Option)> Add(Command command, IReadOnlyList<OptionSpec> specs)
    {
        var options = new List<(OptionSpec, Option)>();
        foreach (OptionSpec spec in specs)
        {
            foreach (string alias in spec.Names)
            {
                // Response files are read before the command is known, so a name must mean one thing everywhere.
                if (_byAlias.TryGetValue(alias, out OptionSpec? known) && known != spec)
                    throw new InvalidOperationException($"option {alias} is declared twice, differently");
                _byAlias[alias] = spec;
            }
            Option option = spec.TakesValue
                ? new Option<string>(spec.Name, spec.Aliases?.ToArray() ?? [])
                {
                    Description = spec.Help,
                    HelpName = spec.ValueName,
                    Arity = spec.ValueIsOptional ? ArgumentArity.ZeroOrOne : ArgumentArity.ExactlyOne,
                }
                : new Option<bool>(spec.Name, spec.Aliases?.ToArray() ?? []) { Description = spec.Help, Arity = ArgumentArity.Zero };
            command.Options.Add(option);
            options.Add((spec, option));
        }
        return options;
    }

    /// <summary>
    /// Before System.CommandLine sees them (the command line, and each response file's words): an optional value
    /// made inline, so that "--json a.dmp" leaves a.dmp a dump; a value given to a flag refused.
    /// </summary>
    private IReadOnlyList<string> Normalize(IReadOnlyList<string> args)
    {
        var normal = new List<string>(args.Count);
        for (int i = 0; i < args.Count; i++)
        {
            string arg = args[i];
            if (arg == "--")
            {
                normal.AddRange(args.Skip(i));
                break;
            }
            int separator = arg.IndexOfAny([':', '=']);
            string name = separator > 0 ? arg[..separator] : arg;
            if (!_byAlias.TryGetValue(name, out OptionSpec? spec))
            {
                normal.Add(arg);
                continue;
            }
            if (!spec.TakesValue && separator > 0)
                throw new UsageException($"option {spec.Name} takes no value");
            if (spec.OptionalValueIf is not { } accepts)
                normal.Add(arg);
            else if (separator > 0)
                normal.Add(separator == arg.Length - 1 ? $"{name}={EmptyValue}" : arg);
            else if (i + 1 < args.Count && accepts(args[i + 1]))
                normal.Add($"{name}={args[++i]}");
            else
                normal.Add($"{name}={NoValue}");
        }
        return normal;
    }

    private ParsedArguments Read(ParseResult result, Mapping mapping)
    {
        IReadOnlyList<Token> positionals = mapping.Positionals is { } argument ? result.GetResult(argument)?.Tokens ?? [] : [];
        var options = new Dictionary<string, string?>();
        foreach ((OptionSpec spec, Option option) in mapping.Options)
        {
            // Implicit: a flag not given, which System.CommandLine fills with its default value.
            if (result.GetResult(option) is { Implicit: false } given)
                options[spec.Name] = given.Tokens.Count == 0 ? null : Decode(given.Tokens[0].Value);
        }
        var arguments = new ParsedArguments(positionals.Select(t => t.Value).ToList(), options);
        // diagext alone gets the command list whatever else it was given; help is shown whatever else is
        // wrong, as System.CommandLine's own help does.
        if (mapping.Command is not null && !arguments.Has(CommonOptions.Help.Name))
            Check(result, mapping, positionals);
        return arguments;
    }

    private static string? Decode(string value) => value switch
    {
        NoValue => null,
        EmptyValue => "",
        _ => value,
    };

    private static void Check(ParseResult result, Mapping mapping, IReadOnlyList<Token> positionals)
    {
        // A shell may expand a glob into thousands of dumps: look tokens up, do not scan for each.
        var positional = new HashSet<Token>(positionals, ReferenceEqualityComparer.Instance);
        foreach (Token token in result.Tokens)
        {
            if (token.Type == TokenType.DoubleDash)
                break;
            if (token.Value.Length > 1 && token.Value[0] == '-' && positional.Contains(token))
            {
                string name = token.Value.Split('=', ':')[0];
                throw new UsageException($"unknown option '{name}'{Suggestion.For(name, mapping.Options.SelectMany(o => o.Spec.Names))}");
            }
        }
        foreach ((OptionSpec spec, Option option) in mapping.Options)
        {
            if (result.GetResult(option) is not { Implicit: false } given)
                continue;
            if (given.IdentifierTokenCount > 1)
                throw new UsageException($"option {spec.Name} given twice");
            if (spec.TakesValue && !spec.ValueIsOptional && given.Tokens.Count == 0)
                throw new UsageException($"option {spec.Name} needs a value ({spec.ValueName})");
        }
        if (result.Errors.FirstOrDefault() is { } error)
            throw new UsageException(error.Message);
    }

    private static void Complete(ParseResult result, TextWriter output)
    {
        try
        {
            result.Invoke(new InvocationConfiguration { Output = output, Error = output, EnableDefaultExceptionHandler = false, ProcessTerminationTimeout = null });
        }
        catch (Exception e) when (e is FormatException or OverflowException or ArgumentOutOfRangeException)
        {
            throw new UsageException("[suggest:POSITION] takes the cursor's position in the command line, a number from 0");
        }
    }
}
