namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>How a thread blocked behind the loader lock shows it.</summary>
internal enum VictimStyle
{
    /// <summary>Windows 7 and older, Wine: blocked entering the lock's critical section (RtlEnterCriticalSection; TEB.WaitingOnLoaderLock).</summary>
    CriticalSection,

    /// <summary>Windows 10+: waiting in LdrpDrainWorkQueue on the loader's event while another thread is the load owner.</summary>
    LoadOwner,
}
