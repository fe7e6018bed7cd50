namespace DiagExt.Core.Targets;

public enum TargetKind
{
    WindowsMinidump,
    ElfCore,
    LiveProcess,
}
