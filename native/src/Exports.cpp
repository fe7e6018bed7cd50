// The DLL's exports, named in DiagExt.def. Each command only forwards to diagext.
#include <windows.h>
#include <dbgeng.h>
#include "CommandRunner.h"

extern "C" {

HRESULT CALLBACK DebugExtensionInitialize(PULONG version, PULONG flags)
{
    *version = (1u << 16) | 0u;  // DEBUG_EXTENSION_VERSION(1, 0)
    *flags = 0;
    return S_OK;
}

void CALLBACK DebugExtensionUninitialize() {}

void CALLBACK DebugExtensionNotify(ULONG, ULONG64) {}

HRESULT CALLBACK help(PDEBUG_CLIENT client, PCSTR args) { return RunDiagextCommand(client, "help", args); }

HRESULT CALLBACK analyze(PDEBUG_CLIENT client, PCSTR args) { return RunDiagextCommand(client, "analyze", args); }

HRESULT CALLBACK dictcycle(PDEBUG_CLIENT client, PCSTR args) { return RunDiagextCommand(client, "dictcycle", args); }

HRESULT CALLBACK loaderlock(PDEBUG_CLIENT client, PCSTR args) { return RunDiagextCommand(client, "loaderlock", args); }

HRESULT CALLBACK wcfhang(PDEBUG_CLIENT client, PCSTR args) { return RunDiagextCommand(client, "wcfhang", args); }
HRESULT CALLBACK hang(PDEBUG_CLIENT client, PCSTR args) { return RunDiagextCommand(client, "hang", args); }

HRESULT CALLBACK ctororder(PDEBUG_CLIENT client, PCSTR args) { return RunDiagextCommand(client, "ctororder", args); }

}  // extern "C"
