// The DLL's exports. Each command only forwards to diagext. The per-command exports (!dictcycle, !hang, ...)
// are generated: Commands.inc holds one DIAGEXT_COMMAND(name) line per command 'diagext help --list' marks
// "debugger", GenericCommands.inc one DIAGEXT_GENERIC_COMMAND(name) per command marked "diagext" (run only as
// "!diagext name": analyze, since !analyze is ext.dll's), both written by CMake from that list (native/build.sh
// asks the diagext it builds), so a detector added to the catalog gets its !command with no edit here.
#include <windows.h>
#include <dbgeng.h>
#include "CommandRunner.h"

namespace
{
// The generic ones first: the first is what a bare "!diagext" runs.
const char* const DebuggerCommands[] = {
#define DIAGEXT_GENERIC_COMMAND(name) #name,
#include "GenericCommands.inc"
#undef DIAGEXT_GENERIC_COMMAND
#define DIAGEXT_COMMAND(name) #name,
#include "Commands.inc"
#undef DIAGEXT_COMMAND
};
}  // namespace

extern "C" {

HRESULT CALLBACK DebugExtensionInitialize(PULONG version, PULONG flags)
{
    *version = (1u << 16) | 0u;  // DEBUG_EXTENSION_VERSION(1, 0)
    *flags = 0;
    return S_OK;
}

void CALLBACK DebugExtensionUninitialize() {}

void CALLBACK DebugExtensionNotify(ULONG, ULONG64) {}

// "!diagext <command> [options]": any command of the list, as SOS's one generic export runs any managed command;
// "!diagext [options]": analyze, every detector.
HRESULT CALLBACK diagext(PDEBUG_CLIENT client, PCSTR args)
{
    return RunDiagextCommandLine(client, args, DebuggerCommands, sizeof(DebuggerCommands) / sizeof(DebuggerCommands[0]));
}

#define DIAGEXT_COMMAND(name) \
    HRESULT CALLBACK name(PDEBUG_CLIENT client, PCSTR args) { return RunDiagextCommand(client, #name, args); }
#include "Commands.inc"
#undef DIAGEXT_COMMAND

}  // extern "C"
