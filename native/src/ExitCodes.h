// diagext's documented exit codes, mirrored from managed/DiagExt.Core/Errors/ExitCode.cs, where they are
// defined (tests/DiagExt.Tests/WinDbg/ExitCodeHeaderTests.cs fails if the two differ).
#pragma once
#include <windows.h>

enum class DiagextExit : DWORD
{
    NothingFound = 0,  // analysis ran; no hazard found
    HazardsFound = 1,  // analysis ran; at least one hazard found
    InputError = 2,    // bad usage or unusable input; diagext said why in one line on stderr
    Incomplete = 3,    // analysis ran but a detector failed and no other found a hazard; the report says which
    Cancelled = 130,   // cancelled by Ctrl+C (SIGINT)
    Terminated = 143,  // cancelled by SIGTERM
};

// diagext ran to the end (0, 1 or 3): its report is what it printed.
inline bool Analysed(DWORD exitCode)
{
    return exitCode == static_cast<DWORD>(DiagextExit::NothingFound) || exitCode == static_cast<DWORD>(DiagextExit::HazardsFound) ||
           exitCode == static_cast<DWORD>(DiagextExit::Incomplete);
}
