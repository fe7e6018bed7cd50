/* shapes.exe threadwait|sectionload|detachwait|busy: loader-lock shapes nobody built the detector for (issue 32),
 * each printing who should be named once it is in place:
 *   READY <pid> owner <tid> victims <tid>[,<tid>...]      (the three hangs)
 *   READY <pid> busy <tid>[,<tid>...]                     (the busy loader's looping threads)
 * It never ends by itself: the test ends it.
 *
 *  threadwait   the main thread loads threadwait.dll, whose DllMain creates a thread and waits for it; the new
 *               thread cannot start (DLL_THREAD_ATTACH needs the loader lock). Certain deadlock.
 *  sectionload  the main thread holds an application critical section and calls LoadLibrary; a worker, inside
 *               sectionload.dll's DllMain, enters that section. Certain deadlock (a critical-section cycle).
 *  detachwait   the main thread calls FreeLibrary; detachwait.dll's DLL_PROCESS_DETACH waits for an event the
 *               worker sets after its GetModuleHandle, which waits for the loader lock. Likely deadlock: nothing in
 *               a dump says who would set an event.
 *  busy         eight threads loop LoadLibrary/GetProcAddress/FreeLibrary on busyplugin.dll: healthy, and the
 *               loader lock is often held with waiters behind it. */
#include <stdio.h>
#include <string.h>
#include <windows.h>
#include "shapes.h"

#define BUSY_THREADS 8

static struct shape_roles g_roles;
static CRITICAL_SECTION g_app_section;
static volatile LONG g_reporter_running;

__declspec(dllexport) struct shape_roles *shape_roles_get(void) { return &g_roles; }

static void write_line(const char *line)
{
    /* Straight to the handle: nothing on the way may need the loader lock. */
    DWORD written;
    WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), line, (DWORD)strlen(line), &written, NULL);
}

/* Started before anything hangs: a thread created later would itself wait for the loader lock. */
static DWORD WINAPI reporter(LPVOID unused)
{
    (void)unused;
    InterlockedExchange(&g_reporter_running, 1);
    while (!g_roles.ready)
        Sleep(10);
    Sleep(500); /* let the last thread reach its wait */
    char line[256];
    int at = snprintf(line, sizeof line, "READY %lu owner %lu victims ", GetCurrentProcessId(), g_roles.owner);
    for (LONG i = 0; i < g_roles.victim_count && at < (int)sizeof line - 16; i++)
        at += snprintf(line + at, sizeof line - at, i == 0 ? "%lu" : ",%lu", g_roles.victims[i]);
    snprintf(line + at, sizeof line - at, "\n");
    write_line(line);
    Sleep(INFINITE);
    return 0;
}

/* Returns once the reporter runs: until its DLL_THREAD_ATTACH is done it needs the loader lock too. */
static void start_reporter(void)
{
    CloseHandle(CreateThread(NULL, 0, reporter, NULL, 0, NULL));
    while (!g_reporter_running)
        Sleep(10);
}

static int threadwait(void)
{
    start_reporter();
    HMODULE dll = LoadLibraryW(L"threadwait.dll"); /* hangs in its DllMain */
    printf("LoadLibrary returned %p\n", (void *)dll);
    return 1;
}

static DWORD WINAPI section_loader(LPVOID unused)
{
    (void)unused;
    HMODULE dll = LoadLibraryW(L"sectionload.dll"); /* its DllMain hangs entering g_app_section */
    return dll != NULL;
}

static int sectionload(void)
{
    InitializeCriticalSection(&g_app_section);
    g_roles.section = &g_app_section;
    start_reporter();
    EnterCriticalSection(&g_app_section);
    DWORD loader;
    CloseHandle(CreateThread(NULL, 0, section_loader, NULL, 0, &loader));
    while (!g_roles.in_dllmain)
        Sleep(10);
    Sleep(200); /* let it block on the section */
    g_roles.owner = loader;
    g_roles.victims[0] = GetCurrentThreadId();
    g_roles.victim_count = 1;
    InterlockedExchange(&g_roles.ready, 1);
    HMODULE plugin = LoadLibraryW(L"plugin.dll"); /* hangs: the loader owns the loader lock */
    LeaveCriticalSection(&g_app_section);
    printf("LoadLibrary returned %p\n", (void *)plugin);
    return 1;
}

static void (*g_detach_finished)(void);

static DWORD WINAPI detach_worker(LPVOID unused)
{
    (void)unused;
    while (!g_roles.in_dllmain)
        Sleep(10);
    GetModuleHandleW(L"kernel32.dll"); /* hangs: FreeLibrary's thread owns the loader lock */
    g_detach_finished();
    return 0;
}

static int detachwait(void)
{
    HMODULE dll = LoadLibraryW(L"detachwait.dll");
    if (dll == NULL)
        return 2;
    g_detach_finished = (void (*)(void))(void (*)(void))GetProcAddress(dll, "detachwait_finished");
    start_reporter();
    DWORD worker;
    CloseHandle(CreateThread(NULL, 0, detach_worker, NULL, 0, &worker));
    Sleep(200); /* the worker is running (its DLL_THREAD_ATTACH done) before the lock is taken */
    g_roles.owner = GetCurrentThreadId();
    g_roles.victims[0] = worker;
    g_roles.victim_count = 1;
    InterlockedExchange(&g_roles.ready, 1);
    FreeLibrary(dll); /* hangs in DLL_PROCESS_DETACH */
    printf("FreeLibrary returned\n");
    return 1;
}

static volatile LONG g_busy_rounds;

static DWORD WINAPI busy_loop(LPVOID unused)
{
    (void)unused;
    for (;;)
    {
        HMODULE dll = LoadLibraryW(L"busyplugin.dll");
        LONG (*answer)(void) = dll == NULL ? NULL : (LONG (*)(void))(void (*)(void))GetProcAddress(dll, "busy_answer");
        if (answer != NULL)
            answer();
        if (dll != NULL)
            FreeLibrary(dll);
        InterlockedIncrement(&g_busy_rounds);
    }
    return 0;
}

static int busy(void)
{
    DWORD ids[BUSY_THREADS];
    for (int i = 0; i < BUSY_THREADS; i++)
        CloseHandle(CreateThread(NULL, 0, busy_loop, NULL, 0, &ids[i]));
    while (g_busy_rounds < 1000)
        Sleep(10);
    char line[256];
    int at = snprintf(line, sizeof line, "READY %lu busy ", GetCurrentProcessId());
    for (int i = 0; i < BUSY_THREADS; i++)
        at += snprintf(line + at, sizeof line - at, i == 0 ? "%lu" : ",%lu", ids[i]);
    snprintf(line + at, sizeof line - at, "\n");
    write_line(line);
    Sleep(INFINITE);
    return 0;
}

static const struct
{
    const char *name;
    int (*run)(void);
} g_shapes[] = { { "threadwait", threadwait }, { "sectionload", sectionload }, { "detachwait", detachwait }, { "busy", busy } };

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    for (size_t i = 0; i < sizeof g_shapes / sizeof g_shapes[0]; i++)
    {
        if (strcmp(mode, g_shapes[i].name) != 0)
            continue;
        printf("STARTED %lu %s\n", GetCurrentProcessId(), mode);
        fflush(stdout);
        return g_shapes[i].run();
    }
    fprintf(stderr, "usage: shapes threadwait|sectionload|detachwait|busy\n");
    return 2;
}
