namespace DiagExt.Cli.CommandLine;

/// <summary>Parses "--name value", "--name=value", flags and optional values against a command's option specs; anything unknown is an error.</summary>
public static class ArgumentParser
{
    public static ParsedArguments Parse(IReadOnlyList<string> args, IReadOnlyList<OptionSpec> specs)
    {
        var positionals = new List<string>();
        var options = new Dictionary<string, string?>();
        bool onlyPositionals = false;
        for (int i = 0; i < args.Count; i++)
        {
            string arg = args[i];
            if (onlyPositionals || !arg.StartsWith('-') || arg == "-")
            {
                positionals.Add(arg);
                continue;
            }
            if (arg == "--")
            {
                onlyPositionals = true;
                continue;
            }

            string name = arg, inlineValue = "";
            bool hasInline = false;
            int equals = arg.IndexOf('=');
            if (arg.StartsWith("--", StringComparison.Ordinal) && equals > 2)
            {
                name = arg[..equals];
                inlineValue = arg[(equals + 1)..];
                hasInline = true;
            }

            OptionSpec spec = specs.FirstOrDefault(s => s.Answers(name))
                ?? throw new UsageException($"unknown option '{name}'{Suggestion.For(name, specs.SelectMany(s => s.Aliases is null ? [s.Name] : s.Aliases.Prepend(s.Name)))}");
            if (options.ContainsKey(spec.Name))
                throw new UsageException($"option {spec.Name} given twice");
            if (!spec.TakesValue)
            {
                if (hasInline)
                    throw new UsageException($"option {spec.Name} takes no value");
                options[spec.Name] = null;
            }
            else if (hasInline)
            {
                options[spec.Name] = inlineValue;
            }
            else if (spec.OptionalValueIf is { } accepts)
            {
                options[spec.Name] = i + 1 < args.Count && accepts(args[i + 1]) ? args[++i] : null;
            }
            else if (i + 1 < args.Count)
            {
                options[spec.Name] = args[++i];
            }
            else
            {
                throw new UsageException($"option {spec.Name} needs a value ({spec.ValueName})");
            }
        }
        return new ParsedArguments(positionals, options);
    }
}
