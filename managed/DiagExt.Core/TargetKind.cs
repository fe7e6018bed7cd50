namespace DiagExt.Core;

public enum TargetKind
{
    WindowsMinidump,
    ElfCore,
    LiveProcess,
}
