namespace DiagExt.Core.Targets;

public enum TargetKind
{
    WindowsMinidump,
    ElfCore,
    LiveProcess,

    /// <summary>Assembly files scanned statically (ctororder --assembly): no process at all.</summary>
    Assemblies,
}
