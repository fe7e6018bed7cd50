using System.Text.RegularExpressions;
using DiagExt.Cli.CommandLine;
using DiagExt.Cli.Commands;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Docs;

/// <summary>
/// The docs a newcomer reads stay true to the tool: every command has its page and the README links it, every
/// relative link resolves, each page's options are the text `diagext help NAME` prints, and every `$ diagext ...`
/// line shown as real output still parses. DIAGEXT_UPDATE_DOCS=1 rewrites the options blocks from the help text
/// (then read the diff) instead of failing on them.
/// </summary>
[TestFixture]
[Category(TestKind.Unit), Parallelizable(ParallelScope.Fixtures)]
public partial class DocsTests
{
    private static string Docs => Path.Combine(Repo.Root, "docs");

    private static IEnumerable<string> MarkdownFiles() =>
        Directory.EnumerateFiles(Docs, "*.md", SearchOption.AllDirectories)
            .Append(Path.Combine(Repo.Root, "README.md"))
            .Order(StringComparer.Ordinal);

    [Test]
    public void Every_command_has_its_page_and_the_README_links_it()
    {
        string readme = File.ReadAllText(Path.Combine(Repo.Root, "README.md"));
        foreach (ICommand command in CommandCatalog.All)
        {
            string page = Path.Combine(Docs, "commands", command.Name + ".md");
            Assert.That(File.Exists(page), Is.True, $"docs/commands/{command.Name}.md is missing");
            Assert.That(readme, Does.Contain($"(docs/commands/{command.Name}.md)"), $"the README does not link {command.Name}'s page");
            Assert.That(File.ReadAllText(page), Does.Contain($"<!-- help: {command.Name} -->"), $"{command.Name}'s page has no options block");
        }
        foreach (string page in Directory.EnumerateFiles(Path.Combine(Docs, "commands"), "*.md"))
            Assert.That(CommandCatalog.Find(Path.GetFileNameWithoutExtension(page)), Is.Not.Null, $"{page} documents no command");
    }

    [Test]
    public void The_README_stays_short() =>
        Assert.That(File.ReadAllLines(Path.Combine(Repo.Root, "README.md")), Has.Length.LessThanOrEqualTo(150));

    [Test]
    public void Every_relative_link_resolves()
    {
        var broken = new List<string>();
        foreach (string file in MarkdownFiles())
        {
            foreach (Match link in LinkPattern().Matches(WithoutCode(File.ReadAllText(file))))
            {
                string target = link.Groups["target"].Value;
                if (target.Contains("://", StringComparison.Ordinal) || target.StartsWith("mailto:", StringComparison.Ordinal))
                    continue;
                string[] parts = target.Split('#', 2);
                string path = parts[0].Length == 0 ? file : Path.GetFullPath(Path.Combine(Path.GetDirectoryName(file)!, parts[0]));
                string where = $"{Path.GetRelativePath(Repo.Root, file)}: ({target})";
                if (!File.Exists(path) && !Directory.Exists(path))
                    broken.Add($"{where}: no such file");
                else if (parts.Length == 2 && File.Exists(path) && !Anchors(path).Contains(parts[1]))
                    broken.Add($"{where}: no heading #{parts[1]}");
            }
        }
        Assert.That(broken, Is.Empty);
    }

    [Test]
    public void Each_pages_options_are_what_help_prints()
    {
        bool update = Environment.GetEnvironmentVariable("DIAGEXT_UPDATE_DOCS") == "1";
        var stale = new List<string>();
        foreach (string file in MarkdownFiles())
        {
            string text = File.ReadAllText(file);
            string updated = HelpBlock().Replace(text, block =>
            {
                string name = block.Groups["name"].Value;
                Diagext.Result help = Diagext.Run("help", name);
                Assert.That(help.ExitCode, Is.EqualTo(0), $"{file}: 'diagext help {name}' failed: {help.Stderr}");
                string expected = help.Stdout.Replace("\r\n", "\n").TrimEnd('\n');
                if (block.Groups["body"].Value.TrimEnd('\n') != expected)
                    stale.Add($"{Path.GetRelativePath(Repo.Root, file)}: the options of '{name}'");
                return $"<!-- help: {name} -->\n```text\n{expected}\n```\n<!-- /help -->";
            });
            if (update && updated != text)
                File.WriteAllText(file, updated);
        }
        if (!update)
            Assert.That(stale, Is.Empty, "run the test with DIAGEXT_UPDATE_DOCS=1 to copy the help text into the docs, then read the diff");
    }

    [Test]
    public void Every_command_line_shown_as_real_output_still_parses()
    {
        var parser = new SystemCommandLineAdapter(CommandCatalog.All, [CommonOptions.Help, VersionCommand.Flag]);
        var failures = new List<string>();
        int seen = 0;
        foreach (string file in MarkdownFiles())
        {
            string[] lines = File.ReadAllLines(file);
            for (int i = 0; i < lines.Length; i++)
            {
                if (!lines[i].StartsWith("$ diagext ", StringComparison.Ordinal) || ShellWords(lines[i][2..]) is not { } words)
                    continue;
                seen++;
                string next = i + 1 < lines.Length ? lines[i + 1] : "";
                try
                {
                    parser.Parse(words.Skip(1).ToList());
                }
                catch (UsageException e)
                {
                    // An example of a mistake shows diagext's answer on the next line: it must still be that answer.
                    if (next != $"diagext: {e.Message} (see 'diagext help')")
                        failures.Add($"{Path.GetRelativePath(Repo.Root, file)}:{i + 1}: {lines[i]} -> {e.Message}");
                }
            }
        }
        Assert.That(seen, Is.GreaterThan(20), "the docs show fewer command lines than expected: is the prompt still '$ diagext'?");
        Assert.That(failures, Is.Empty);
    }

    /// <summary>The words of a shell line up to its first pipe, redirection, separator or comment; null when it
    /// names a response file the page only shows (@FILE).</summary>
    private static List<string>? ShellWords(string line)
    {
        var words = new List<string>();
        var word = new System.Text.StringBuilder();
        bool inWord = false;
        char quote = '\0';
        foreach (char c in line)
        {
            if (quote != '\0')
            {
                if (c == quote) quote = '\0';
                else word.Append(c);
                continue;
            }
            if (c is '\'' or '"') { quote = c; inWord = true; continue; }
            if (c is '|' or ';' or '>' or '&' or '#' && !inWord) break;
            if (char.IsWhiteSpace(c))
            {
                if (inWord) words.Add(word.ToString());
                word.Clear();
                inWord = false;
                continue;
            }
            word.Append(c);
            inWord = true;
        }
        if (inWord) words.Add(word.ToString());
        return words.Any(w => w.StartsWith('@')) ? null : words;
    }

    /// <summary>GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as hyphens.</summary>
    private static HashSet<string> Anchors(string file) =>
        File.ReadAllLines(file)
            .Where(l => l.StartsWith('#'))
            .Select(l => Regex.Replace(l.TrimStart('#').Trim().ToLowerInvariant(), @"[^\p{L}\p{N} _-]", "").Replace(' ', '-'))
            .ToHashSet();

    private static string WithoutCode(string markdown) => CodeBlock().Replace(InlineCode().Replace(markdown, ""), "");

    [GeneratedRegex(@"\[[^\]]*\]\((?<target>[^)\s]+)\)")]
    private static partial Regex LinkPattern();

    [GeneratedRegex(@"```.*?```", RegexOptions.Singleline)]
    private static partial Regex CodeBlock();

    [GeneratedRegex(@"`[^`\n]*`")]
    private static partial Regex InlineCode();

    [GeneratedRegex(@"<!-- help: (?<name>[a-z]+) -->\n```text\n(?<body>.*?)```\n<!-- /help -->", RegexOptions.Singleline)]
    private static partial Regex HelpBlock();
}
