// One debugger command, start to end: find the target, find diagext, run it, relay its lines,
// and turn every way it can go wrong into one line in the command window.
#pragma once
#include <windows.h>
#include <dbgeng.h>

// Never throws; the HRESULT is what the export returns to the engine.
HRESULT RunDiagextCommand(IDebugClient* client, const char* command, const char* args) noexcept;

// "!diagext <command> [options]": the first word names one of the diagext commands in known (the generated
// list the per-command exports come from); none runs help. Never throws.
HRESULT RunDiagextCommandLine(IDebugClient* client, const char* line, const char* const* known, size_t knownCount) noexcept;
