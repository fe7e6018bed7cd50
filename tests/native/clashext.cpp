// A second dbgeng extension for the tests: it exports analyze (standing in for ext.dll's !analyze, which the engine
// package lacks) and help, as DiagExt does, and each says it ran. Loaded with DiagExt in either order, it shows which
// extension the engine runs for a name two loaded extensions export.
#include <windows.h>
#include <initguid.h>
#include <dbgeng.h>

namespace
{
HRESULT Say(PDEBUG_CLIENT client, PCSTR command, PCSTR args)
{
    IDebugControl* control = nullptr;
    HRESULT hr = client->QueryInterface(IID_IDebugControl, reinterpret_cast<void**>(&control));
    if (FAILED(hr))
        return hr;
    control->Output(DEBUG_OUTPUT_NORMAL, "clash-extension: %s %s\n", command, args == nullptr ? "" : args);
    control->Release();
    return S_OK;
}
}  // namespace

extern "C" {
__declspec(dllexport) HRESULT CALLBACK DebugExtensionInitialize(PULONG version, PULONG flags)
{
    *version = (1u << 16) | 0u;
    *flags = 0;
    return S_OK;
}

__declspec(dllexport) void CALLBACK DebugExtensionUninitialize() {}

__declspec(dllexport) HRESULT CALLBACK analyze(PDEBUG_CLIENT client, PCSTR args) { return Say(client, "analyze", args); }

__declspec(dllexport) HRESULT CALLBACK help(PDEBUG_CLIENT client, PCSTR args) { return Say(client, "help", args); }
}
