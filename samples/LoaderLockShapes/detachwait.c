/* detachwait.dll: DllMain(DLL_PROCESS_DETACH), run by FreeLibrary under the loader lock, waits for an event that a
 * worker sets once it has called GetModuleHandle; GetModuleHandle needs the loader lock. The dump cannot prove who
 * would set the event: a likely deadlock. */
#include "shapes.h"

static HANDLE g_finished;

/* What the worker calls once its GetModuleHandle returned. */
__declspec(dllexport) void detachwait_finished(void) { SetEvent(g_finished); }

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
    (void)instance;
    (void)reserved;
    if (reason == DLL_PROCESS_ATTACH)
        g_finished = CreateEventW(NULL, TRUE, FALSE, NULL);
    else if (reason == DLL_PROCESS_DETACH && reserved == NULL)
    {
        InterlockedExchange(&shape_roles()->in_dllmain, 1);
        WaitForSingleObject(g_finished, INFINITE); /* hangs */
        CloseHandle(g_finished);
    }
    return TRUE;
}
