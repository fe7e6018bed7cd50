namespace DiagExt.Core.Errors;

/// <summary>
/// An error DiagExt expects and explains in one line (missing file, not a dump, no DAC...).
/// The CLI prints only <see cref="Exception.Message"/> and exits with <see cref="ExitCode.InputError"/>.
/// </summary>
public class DiagExtException : Exception
{
    public DiagExtException(string message) : base(message) { }

    public DiagExtException(string message, Exception inner) : base(message, inner) { }

    /// <param name="remedy">What the user can do; the front end words it after the message.</param>
    public DiagExtException(string message, Remedy remedy) : base(message) => Remedy = remedy;

    public Remedy Remedy { get; }
}
