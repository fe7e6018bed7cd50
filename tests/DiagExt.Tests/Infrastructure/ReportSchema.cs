using NJsonSchema;

namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// The published schema of diagext's JSON (schemas/diagext-report.v1.schema.json): every JSON report a test sees
/// is checked against it, single target, static scan and batch alike.
/// </summary>
public static class ReportSchema
{
    public static string Path => System.IO.Path.Combine(Repo.Root, "schemas", "diagext-report.v1.schema.json");

    private static readonly Lazy<JsonSchema> Schema = new(() => JsonSchema.FromFileAsync(Path).GetAwaiter().GetResult());

    /// <summary>Fails the test with every violation, each with its JSON path.</summary>
    public static void AssertValid(string json, string what)
    {
        var errors = Schema.Value.Validate(json);
        Assert.That(errors.Select(e => $"{e.Path}: {e.Kind}{Nested(e)}"), Is.Empty, $"{what} does not match {Path}");
    }

    /// <summary>A oneOf failure says little alone: its branches' own errors say why.</summary>
    private static string Nested(NJsonSchema.Validation.ValidationError error) =>
        error is NJsonSchema.Validation.ChildSchemaValidationError child
            ? " (" + string.Join("; ", child.Errors.SelectMany(b => b.Value).Select(e => $"{e.Path}: {e.Kind}")) + ")"
            : "";

    /// <summary>The JSON documents among a command's outputs: stdout that is one object carrying schemaVersion.</summary>
    public static bool IsReport(string text) => text.StartsWith('{') && text.Contains("\"schemaVersion\"", StringComparison.Ordinal);
}
