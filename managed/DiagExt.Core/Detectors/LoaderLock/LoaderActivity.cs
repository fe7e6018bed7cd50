namespace DiagExt.Core.Detectors.LoaderLock;

/// <summary>What loader work a thread is in, told by the exported loader function on its stack.</summary>
internal enum LoaderActivity
{
    /// <summary>LdrShutdownThread / RtlExitUserThread: DLL_THREAD_DETACH and TLS callbacks of an exiting thread.</summary>
    ExitingThread,

    /// <summary>LdrShutdownProcess / RtlExitUserProcess: DLL_PROCESS_DETACH at process exit.</summary>
    ExitingProcess,

    /// <summary>LdrLoadDll / LoadLibrary*: mapping a DLL and running its DllMain(DLL_PROCESS_ATTACH).</summary>
    Loading,

    /// <summary>LdrUnloadDll / FreeLibrary: DllMain(DLL_PROCESS_DETACH) of a DLL being unloaded.</summary>
    Unloading,

    /// <summary>LdrGetProcedureAddress / GetProcAddress.</summary>
    ResolvingExport,

    /// <summary>LdrGetDllHandle / GetModuleHandle.</summary>
    FindingModule,

    /// <summary>LdrLockLoaderLock: code that took the lock explicitly.</summary>
    LockingExplicitly,

    /// <summary>LdrInitializeThunk: a new thread running DLL_THREAD_ATTACH.</summary>
    StartingThread,
}

/// <summary>How to say each activity in a sentence.</summary>
internal static class LoaderActivityText
{
    /// <summary>"is exiting": completes "Thread 3 (0x6710) owns the loader lock, ...".</summary>
    public static string Verb(LoaderActivity activity) => activity switch
    {
        LoaderActivity.ExitingThread => "is exiting",
        LoaderActivity.ExitingProcess => "is exiting the process",
        LoaderActivity.Loading => "is loading a DLL",
        LoaderActivity.Unloading => "is unloading a DLL",
        LoaderActivity.ResolvingExport => "is resolving an export",
        LoaderActivity.FindingModule => "is looking up a module",
        LoaderActivity.LockingExplicitly => "took it with LdrLockLoaderLock",
        _ => "is starting",
    };

    /// <summary>What code runs under the lock during the activity.</summary>
    public static string RunsUnderLock(LoaderActivity activity) => activity switch
    {
        LoaderActivity.ExitingThread => "DLL_THREAD_DETACH notifications and TLS callbacks",
        LoaderActivity.ExitingProcess => "DLL_PROCESS_DETACH notifications",
        LoaderActivity.Loading => "DllMain(DLL_PROCESS_ATTACH) of the DLLs being loaded",
        LoaderActivity.Unloading => "DllMain(DLL_PROCESS_DETACH) of the DLL being unloaded",
        LoaderActivity.StartingThread => "DLL_THREAD_ATTACH notifications and TLS callbacks",
        _ => "loader bookkeeping",
    };

    /// <summary>The JSON spelling: "exiting-thread".</summary>
    public static string Key(LoaderActivity activity) => activity switch
    {
        LoaderActivity.ExitingThread => "exiting",
        LoaderActivity.ExitingProcess => "exiting-process",
        LoaderActivity.Loading => "loading",
        LoaderActivity.Unloading => "unloading",
        LoaderActivity.ResolvingExport => "resolving-export",
        LoaderActivity.FindingModule => "finding-module",
        LoaderActivity.LockingExplicitly => "locking-explicitly",
        _ => "starting-thread",
    };
}
