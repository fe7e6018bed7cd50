/* threadcleanup.dll: plays the part of mkl_core.dll in the seed. Every thread that used the library has
 * per-thread state, and DLL_THREAD_DETACH frees it under the library's own lock. DllMain runs while the
 * exiting thread owns the loader lock, so if another thread holds the library's lock and then calls
 * LoadLibrary, neither can go on.
 *
 * Mode CLEANUP_SPIN: the lock is a spin lock; the exiting thread spins in SwitchToThread (the seed).
 * Mode CLEANUP_WAIT: the lock is an event; the exiting thread blocks in WaitForSingleObject.
 * Mode CLEANUP_CRITSEC: the lock is a critical section; the exiting thread blocks in EnterCriticalSection. */
#include <windows.h>
#define THREADCLEANUP_BUILD
#include "threadcleanup.h"

static volatile LONG g_mode = CLEANUP_SPIN;
static volatile LONG g_spin_lock;          /* 0 free, 1 held */
static HANDLE g_unlocked;                  /* manual-reset event, signalled when the lock is free */
static CRITICAL_SECTION g_section;
static volatile LONG g_detach_started;
static DWORD g_tls = TLS_OUT_OF_INDEXES;

CLEANUP_API void cleanup_set_mode(int mode) { InterlockedExchange(&g_mode, mode); }

CLEANUP_API void cleanup_lock(void)
{
    if (g_mode == CLEANUP_CRITSEC)
    {
        EnterCriticalSection(&g_section);
        return;
    }
    while (InterlockedCompareExchange(&g_spin_lock, 1, 0) != 0)
        SwitchToThread();
    ResetEvent(g_unlocked);
}

CLEANUP_API void cleanup_unlock(void)
{
    if (g_mode == CLEANUP_CRITSEC)
    {
        LeaveCriticalSection(&g_section);
        return;
    }
    InterlockedExchange(&g_spin_lock, 0);
    SetEvent(g_unlocked);
}

/* Gives the calling thread per-thread state, so its exit has cleanup to do. */
CLEANUP_API void cleanup_use_from_this_thread(void)
{
    TlsSetValue(g_tls, HeapAlloc(GetProcessHeap(), 0, 64));
}

CLEANUP_API int cleanup_detach_started(void) { return g_detach_started != 0; }

/* Kept out of line so the DLL's own code is on the exiting thread's stack, as mkl_core's was. */
static __attribute__((noinline)) void free_thread_state(void *state)
{
    InterlockedExchange(&g_detach_started, 1);
    if (g_mode == CLEANUP_WAIT)
    {
        WaitForSingleObject(g_unlocked, INFINITE);
    }
    else if (g_mode == CLEANUP_CRITSEC)
    {
        EnterCriticalSection(&g_section);
        LeaveCriticalSection(&g_section);
    }
    else
    {
        while (InterlockedCompareExchange(&g_spin_lock, 1, 0) != 0)
            SwitchToThread();
        InterlockedExchange(&g_spin_lock, 0);
    }
    HeapFree(GetProcessHeap(), 0, state);
}

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
    (void)instance;
    (void)reserved;
    switch (reason)
    {
    case DLL_PROCESS_ATTACH:
        g_tls = TlsAlloc();
        g_unlocked = CreateEventW(NULL, TRUE, TRUE, NULL);
        InitializeCriticalSection(&g_section);
        break;
    case DLL_THREAD_DETACH:
    {
        void *state = g_tls == TLS_OUT_OF_INDEXES ? NULL : TlsGetValue(g_tls);
        if (state != NULL)
            free_thread_state(state);
        break;
    }
    }
    return TRUE;
}
