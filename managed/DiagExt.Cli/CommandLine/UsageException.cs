using DiagExt.Core.Errors;

namespace DiagExt.Cli.CommandLine;

/// <summary>A command line the tool cannot accept; shown as one line with a pointer to help.</summary>
public sealed class UsageException(string message) : DiagExtException(message);
