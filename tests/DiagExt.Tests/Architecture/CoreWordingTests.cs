using System.Text.RegularExpressions;
using DiagExt.Cli.Commands;
using DiagExt.Tests.Infrastructure;

namespace DiagExt.Tests.Architecture;

/// <summary>
/// The core raises typed errors and remedies (Core/Errors/Remedy.cs); only the command line knows its option names and
/// words them (Cli/Commands/RemedyWords.cs). So no string in DiagExt.Core spells an option of diagext's (comments may).
/// </summary>
[TestFixture]
public partial class CoreWordingTests
{
    [GeneratedRegex("\"(?:[^\"\\\\]|\\\\.)*\"")]
    private static partial Regex StringLiteral();

    [Test]
    public void No_string_in_the_core_names_a_command_line_option()
    {
        string[] options = CommandCatalog.All.SelectMany(c => c.Options).SelectMany(o => o.Names).Where(n => n.StartsWith("--", StringComparison.Ordinal)).Distinct().ToArray();
        Assert.That(options, Does.Contain("--dac").And.Contain("--snapshot"), "the options are read from the catalog");
        var found = new List<string>();
        foreach (string file in Directory.EnumerateFiles(Path.Combine(Repo.Root, "managed", "DiagExt.Core"), "*.cs", SearchOption.AllDirectories))
        {
            if (file.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
                continue;
            string[] lines = File.ReadAllLines(file);
            for (int i = 0; i < lines.Length; i++)
            {
                string code = lines[i].TrimStart();
                if (code.StartsWith("//", StringComparison.Ordinal))
                    continue;
                foreach (Match literal in StringLiteral().Matches(code))
                    foreach (string option in options.Where(o => Regex.IsMatch(literal.Value, Regex.Escape(o) + @"(?![\w-])")))
                        found.Add($"{Path.GetRelativePath(Repo.Root, file)}:{i + 1}: {option}");
            }
        }
        Assert.That(found, Is.Empty, string.Join('\n', found));
    }
}
