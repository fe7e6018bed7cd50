/* busyplugin.dll: what the busy loader's threads load, use and free in a loop. Its DllMain does a little work under
 * the loader lock, as real DllMains do, and never waits. */
#include <windows.h>

static volatile LONG g_attached;

__declspec(dllexport) LONG busy_answer(void) { return g_attached; }

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
    (void)instance;
    (void)reserved;
    if (reason == DLL_PROCESS_ATTACH || reason == DLL_PROCESS_DETACH)
    {
        void *scratch = HeapAlloc(GetProcessHeap(), 0, 256);
        InterlockedIncrement(&g_attached);
        HeapFree(GetProcessHeap(), 0, scratch);
    }
    return TRUE;
}
