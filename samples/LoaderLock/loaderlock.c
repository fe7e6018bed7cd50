/* loaderlock.exe spin|wait|critsec|healthy: reproduces the seed's hang (or its healthy twin) and prints
 * "READY <pid> main <tid> worker <tid>" once the state to dump is in place. It never ends by itself: the test kills it.
 *
 *  spin     the main thread holds threadcleanup.dll's lock and calls LoadLibrary while a worker thread,
 *           exiting, owns the loader lock and spins in SwitchToThread in that DLL's DLL_THREAD_DETACH.
 *  wait     the same, but the exiting thread blocks on an event the main thread would set.
 *  critsec  the same, but the exiting thread blocks entering a critical section the main thread holds.
 *  healthy  a thread spins in SwitchToThread outside the loader lock; nobody waits for the lock. */
#include <stdio.h>
#include <string.h>
#include <windows.h>
#include "threadcleanup.h"

static volatile LONG g_loading;
static DWORD g_main_thread, g_worker_thread;

static DWORD WINAPI worker(LPVOID unused)
{
    (void)unused;
    cleanup_use_from_this_thread();
    return 0; /* exiting runs DLL_THREAD_DETACH under the loader lock */
}

/* Started before anything hangs: a thread created later would itself wait for the loader lock. */
static DWORD WINAPI reporter(LPVOID unused)
{
    (void)unused;
    while (!g_loading)
        Sleep(10);
    Sleep(500); /* let the main thread get into LoadLibrary */
    /* Straight to the handle: the C runtime must not get a chance to need the loader lock now. */
    char line[96];
    int length = snprintf(line, sizeof line, "READY %lu main %lu worker %lu\n", GetCurrentProcessId(), g_main_thread, g_worker_thread);
    DWORD written;
    WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), line, (DWORD)length, &written, NULL);
    Sleep(INFINITE);
    return 0;
}

static volatile LONG g_stop_spinning;

static DWORD WINAPI spinner(LPVOID unused)
{
    (void)unused;
    while (!g_stop_spinning) /* a busy wait nobody ends, holding no lock */
        SwitchToThread();
    return 0;
}

static int deadlock(int mode)
{
    cleanup_set_mode(mode);
    g_main_thread = GetCurrentThreadId();
    CloseHandle(CreateThread(NULL, 0, reporter, NULL, 0, NULL));
    cleanup_lock();
    CloseHandle(CreateThread(NULL, 0, worker, NULL, 0, &g_worker_thread));
    while (!cleanup_detach_started())
        Sleep(10);
    InterlockedExchange(&g_loading, 1);
    HMODULE plugin = LoadLibraryW(L"plugin.dll"); /* hangs: the exiting worker owns the loader lock */
    cleanup_unlock();
    printf("LoadLibrary returned %p\n", (void *)plugin);
    return 1;
}

static int healthy(void)
{
    DWORD spinner_thread;
    CloseHandle(CreateThread(NULL, 0, spinner, NULL, 0, &spinner_thread));
    HMODULE plugin = LoadLibraryW(L"plugin.dll");
    Sleep(200);
    printf("READY %lu main %lu spinner %lu (plugin at %p)\n", GetCurrentProcessId(), GetCurrentThreadId(), spinner_thread, (void *)plugin);
    fflush(stdout);
    Sleep(INFINITE);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    printf("STARTED %lu %s\n", GetCurrentProcessId(), mode);
    fflush(stdout);
    if (strcmp(mode, "spin") == 0)
        return deadlock(CLEANUP_SPIN);
    if (strcmp(mode, "wait") == 0)
        return deadlock(CLEANUP_WAIT);
    if (strcmp(mode, "critsec") == 0)
        return deadlock(CLEANUP_CRITSEC);
    if (strcmp(mode, "healthy") == 0)
        return healthy();
    fprintf(stderr, "usage: loaderlock spin|wait|critsec|healthy\n");
    return 2;
}
