/* plugin.dll: what the hung thread tries to load (caffee.dll's allocation loading a library in the seed). */
#include <windows.h>

__declspec(dllexport) int plugin_answer(void) { return 42; }

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
    (void)instance;
    (void)reason;
    (void)reserved;
    return TRUE;
}
