using System.Collections.Immutable;
using System.Composition;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Simplification;

namespace DiagExt.Analyzers;

/// <summary>
/// For DXC0001 on "typeof(T).GetConstructors()[0]" (or First(), FirstOrDefault(), ElementAt(0), Last()) where T is
/// named: "typeof(T).GetConstructor(new Type[] { ... })" with the parameter types of the constructor the code means, the
/// first (last) in declaration order, which is what it gets on .NET 7 and later. Offered only where the analyzer could
/// name that constructor (no filter, sort or predicate between, public instance constructors, writable parameter types).
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(CtorOrderCodeFix)), Shared]
public sealed class CtorOrderCodeFix : CodeFixProvider
{
    private const string Title = "Use GetConstructor with the constructor's parameter types";

    public override ImmutableArray<string> FixableDiagnosticIds => ImmutableArray.Create(CtorOrderAnalyzer.Rule.Id);

    public override FixAllProvider GetFixAllProvider() => WellKnownFixAllProviders.BatchFixer;

    public override async Task RegisterCodeFixesAsync(CodeFixContext context)
    {
        SyntaxNode? root = await context.Document.GetSyntaxRootAsync(context.CancellationToken).ConfigureAwait(false);
        foreach (Diagnostic diagnostic in context.Diagnostics)
        {
            if (!diagnostic.Properties.TryGetValue(CtorOrderAnalyzer.ParameterTypesKey, out string? types) || types is null
                || root?.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true) is not ExpressionSyntax pick
                || Receiver(pick) is not { } receiver)
                continue;
            context.RegisterCodeFix(
                CodeAction.Create(Title, token => Replace(context.Document, pick, receiver, types, token), equivalenceKey: Title),
                diagnostic);
        }
    }

    /// <summary>The expression GetConstructors() is called on, inside the pick.</summary>
    private static ExpressionSyntax? Receiver(ExpressionSyntax pick) =>
        pick.DescendantNodesAndSelf().OfType<InvocationExpressionSyntax>()
            .Select(i => i.Expression as MemberAccessExpressionSyntax)
            .FirstOrDefault(m => m?.Name.Identifier.ValueText == "GetConstructors")?.Expression;

    private static async Task<Document> Replace(Document document, ExpressionSyntax pick, ExpressionSyntax receiver, string types, CancellationToken cancellation)
    {
        SyntaxNode root = (await document.GetSyntaxRootAsync(cancellation).ConfigureAwait(false))!;
        SemanticModel? model = await document.GetSemanticModelAsync(cancellation).ConfigureAwait(false);
        string[] parameterTypes = types.Length == 0 ? new string[0] : types.Split('|');
        // "Type" as the code there can write it (System.Type, or Type under "using System;").
        string type = model?.Compilation.GetTypeByMetadataName("System.Type")?.ToMinimalDisplayString(model, pick.SpanStart) ?? "global::System.Type";
        string array = parameterTypes.Length == 0
            ? $"{type}.EmptyTypes"
            : $"new {type}[] {{ {string.Join(", ", parameterTypes.Select(t => $"typeof({t})"))} }}";
        // GetConstructor may return null where the pick could not: keep the expression's type in a nullable context.
        bool nullable = model?.GetNullableContext(pick.SpanStart).AnnotationsEnabled() == true;
        ExpressionSyntax replacement = SyntaxFactory.ParseExpression($"{receiver.WithoutTrivia()}.GetConstructor({array}){(nullable ? "!" : "")}")
            .WithTriviaFrom(pick)
            .WithAdditionalAnnotations(Simplifier.Annotation, Formatter.Annotation);
        return document.WithSyntaxRoot(root.ReplaceNode(pick, replacement));
    }
}
