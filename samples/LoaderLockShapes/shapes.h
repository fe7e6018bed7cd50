#pragma once
/* What shapes.exe and its DLLs share: the roles each shape gives its threads, filled in as the hang forms and
 * printed by a reporter thread once it is in place. The DLLs find it through shapes.exe's export "shape_roles". */
#include <windows.h>

#define SHAPE_MAX_VICTIMS 8

struct shape_roles
{
    volatile LONG ready;      /* set once owner and victims are known and the hang is about to form */
    volatile LONG in_dllmain; /* set by a DLL when its DllMain reaches the point the shape needs */
    DWORD owner;
    DWORD victims[SHAPE_MAX_VICTIMS];
    LONG victim_count;
    CRITICAL_SECTION *section; /* sectionload: the application's critical section */
};

/* From inside a DllMain: the loader lock is this thread's already, so GetModuleHandle/GetProcAddress re-enter it. */
static inline struct shape_roles *shape_roles(void)
{
    typedef struct shape_roles *(*get_roles)(void);
    get_roles get = (get_roles)(void (*)(void))GetProcAddress(GetModuleHandleW(NULL), "shape_roles_get");
    return get();
}
