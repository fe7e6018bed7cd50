// Finds the diagext build for a target's bitness in the folder DiagExt was installed to:
//   DiagExt\x64\DiagExt.dll   DiagExt\x64\diagext\diagext.exe (self-contained)
//   DiagExt\x86\DiagExt.dll   DiagExt\x86\diagext\diagext.exe, or DiagExt\x86\diagext\diagext.dll run
//                             by the 32-bit .NET host (dotnet.exe x86) where no self-contained 32-bit
//                             build could be made.
// diagext lives in a subfolder because its managed diagext.dll and the extension's DiagExt.dll are the
// same file name on Windows.
#pragma once
#include <string>
#include "Debuggee.h"

struct HelperCommand
{
    std::wstring exe;          // the program to start
    std::wstring leadingArgs;  // before diagext's own arguments (the diagext.dll for dotnet.exe), quoted
    std::wstring note;         // a warning to show first, when a fallback was used
};

// The helper for arch, or false with one line saying what is missing and where it was looked for.
bool LocateHelper(TargetArch arch, HelperCommand& helper, std::wstring& whyNot);

// The folder this DLL was loaded from (with a trailing backslash).
std::wstring ExtensionDirectory();
