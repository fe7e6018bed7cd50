#include "Debuggee.h"

#include <vector>
#include "CommandLine.h"
#include "ComPtr.h"

namespace
{
// DEBUG_USER_WINDOWS_* qualifiers and the dump-file index mingw's header does not name.
constexpr ULONG UserWindowsProcess = 0;
constexpr ULONG UserWindowsProcessServer = 1;
constexpr ULONG UserWindowsIdna = 2;  // a Time Travel Debugging trace
constexpr ULONG FirstDumpQualifier = 1024;  // DEBUG_DUMP_SMALL; full dumps are 1025 and up
constexpr ULONG DumpFileBase = 0xffffffff;  // DEBUG_DUMP_FILE_BASE: the file type of the dump itself

bool DumpPath(IDebugClient* client, std::wstring& path, std::wstring& whyNot)
{
    whyNot = L"the debugger did not say which dump file is open";
    ComPtr<IDebugClient4> client4;
    ULONG files = 0;
    if (FAILED(QueryInto(client, IID_IDebugClient4, client4)) || FAILED(client4->GetNumberDumpFiles(&files)))
        return false;
    // Besides the dump itself the engine may list supporting files (page file dumps); DEBUG_DUMP_FILE_BASE
    // is the type of the dump proper.
    for (ULONG index = 0; index < files && index < 64; index++)
    {
        ULONG needed = 0, type = 0;
        ULONG64 handle = 0;
        if (FAILED(client4->GetDumpFileWide(index, nullptr, 0, &needed, &handle, &type)) || type != DumpFileBase)
            continue;
        if (needed <= 1 || needed > 32768)
            return false;
        std::vector<wchar_t> buffer(needed + 1);
        if (FAILED(client4->GetDumpFileWide(index, buffer.data(), static_cast<ULONG>(buffer.size()), &needed, &handle, &type)))
            return false;
        path.assign(buffer.data());
        return !path.empty();
    }
    return false;
}

bool Arch(IDebugControl* control, TargetArch& arch, std::wstring& whyNot)
{
    // The machine the dump or process really is (not an .effmach view): what diagext will see.
    ULONG machine = 0;
    if (FAILED(control->GetActualProcessorType(&machine)))
    {
        whyNot = L"the debugger did not report the target's processor type";
        return false;
    }
    if (machine == IMAGE_FILE_MACHINE_AMD64)
        arch = TargetArch::X64;
    else if (machine == IMAGE_FILE_MACHINE_I386)
        arch = TargetArch::X86;
    else
    {
        wchar_t text[96];
        wsprintfW(text, L"the target's processor (machine type 0x%x) is not supported: DiagExt reads x64 and x86 targets", machine);
        whyNot = text;
        return false;
    }
    return true;
}

// The engine's symbol path (.sympath): empty when it has none or will not say.
std::wstring SymbolPath(IDebugClient* client)
{
    ComPtr<IDebugSymbols> symbols;
    ULONG needed = 0;
    if (FAILED(QueryInto(client, IID_IDebugSymbols, symbols)) || FAILED(symbols->GetSymbolPath(nullptr, 0, &needed)) || needed <= 1 || needed > 32768)
        return std::wstring();
    std::vector<char> buffer(needed + 1);
    if (FAILED(symbols->GetSymbolPath(buffer.data(), static_cast<ULONG>(buffer.size()), &needed)))
        return std::wstring();
    return FromAnsi(buffer.data());
}
}  // namespace

bool DescribeDebuggee(IDebugClient* client, Debuggee& debuggee, std::wstring& whyNot)
{
    ComPtr<IDebugControl> control;
    if (FAILED(QueryInto(client, IID_IDebugControl, control)))
    {
        whyNot = L"this debugger engine has no IDebugControl";
        return false;
    }
    ULONG debuggeeClass = 0, qualifier = 0;
    if (FAILED(control->GetDebuggeeType(&debuggeeClass, &qualifier)) || debuggeeClass == DEBUG_CLASS_UNINITIALIZED)
    {
        whyNot = L"no target: open a dump (File > Open Crash Dump, or windbg -z) or attach to a process first";
        return false;
    }
    if (debuggeeClass != DEBUG_CLASS_USER_WINDOWS)
    {
        whyNot = debuggeeClass == DEBUG_CLASS_KERNEL
                     ? L"this is a kernel target: DiagExt analyses user-mode processes and their dumps"
                     : L"this target is not a user-mode Windows process or dump";
        return false;
    }
    if (qualifier == UserWindowsIdna)
    {
        whyNot = L"Time Travel Debugging traces are not supported: take a dump (.dump /ma) and analyse that";
        return false;
    }
    if (qualifier == UserWindowsProcessServer)
    {
        whyNot = L"the process runs behind a process server on another machine: run diagext there (diagext analyze --pid N)";
        return false;
    }
    if (!Arch(control.Get(), debuggee.arch, whyNot))
        return false;
    debuggee.symbolPath = SymbolPath(client);
    if (qualifier >= FirstDumpQualifier)
    {
        debuggee.isDump = true;
        return DumpPath(client, debuggee.dumpPath, whyNot);
    }
    if (qualifier != UserWindowsProcess)
    {
        whyNot = L"this kind of user-mode target is not supported: open a dump or attach to a live process";
        return false;
    }
    ComPtr<IDebugSystemObjects> system;
    if (FAILED(QueryInto(client, IID_IDebugSystemObjects, system)) || FAILED(system->GetCurrentProcessSystemId(&debuggee.processId)))
    {
        whyNot = L"the debugger did not report the process id of the current process";
        return false;
    }
    debuggee.isDump = false;
    return true;
}

const wchar_t* ArchName(TargetArch arch) { return arch == TargetArch::X86 ? L"x86" : L"x64"; }
