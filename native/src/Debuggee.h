// What the engine is debugging, in the terms diagext needs: a dump file path or a live process id,
// and whether the target is 64- or 32-bit.
#pragma once
#include <windows.h>
#include <string>
#include <dbgeng.h>

enum class TargetArch
{
    X64,
    X86,
};

struct Debuggee
{
    bool isDump = false;
    std::wstring dumpPath;  // isDump
    ULONG processId = 0;    // !isDump: a live process this debugger has stopped
    TargetArch arch = TargetArch::X64;
    std::wstring symbolPath;  // the debugger's .sympath, for diagext to find a DAC the way the debugger finds symbols
};

// Fills debuggee, or returns false with one line saying why diagext cannot analyse this target.
bool DescribeDebuggee(IDebugClient* client, Debuggee& debuggee, std::wstring& whyNot);

const wchar_t* ArchName(TargetArch arch);
