/* threadwait.dll: DllMain(DLL_PROCESS_ATTACH) creates a thread and waits for it to end. The new thread cannot even
 * start: its DLL_THREAD_ATTACH needs the loader lock, which the thread running this DllMain owns. Certain deadlock. */
#include "shapes.h"

static DWORD WINAPI helper(LPVOID unused)
{
    (void)unused;
    return 0; /* never reached */
}

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
    (void)instance;
    (void)reserved;
    if (reason == DLL_PROCESS_ATTACH)
    {
        struct shape_roles *roles = shape_roles();
        DWORD id = 0;
        HANDLE thread = CreateThread(NULL, 0, helper, NULL, 0, &id);
        if (thread == NULL)
            return FALSE;
        roles->owner = GetCurrentThreadId();
        roles->victims[0] = id;
        roles->victim_count = 1;
        InterlockedExchange(&roles->ready, 1);
        WaitForSingleObject(thread, INFINITE); /* hangs */
        CloseHandle(thread);
    }
    return TRUE;
}
