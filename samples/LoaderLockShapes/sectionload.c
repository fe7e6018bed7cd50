/* sectionload.dll: DllMain(DLL_PROCESS_ATTACH) enters the application's critical section. The application's main
 * thread holds that section and calls LoadLibrary, which needs the loader lock this DllMain's thread owns. */
#include "shapes.h"

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
    (void)instance;
    (void)reserved;
    if (reason == DLL_PROCESS_ATTACH)
    {
        struct shape_roles *roles = shape_roles();
        InterlockedExchange(&roles->in_dllmain, 1);
        EnterCriticalSection(roles->section); /* hangs */
        LeaveCriticalSection(roles->section);
    }
    return TRUE;
}
