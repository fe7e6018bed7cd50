#include "HelperLocator.h"

#include <windows.h>
#include "CommandLine.h"

namespace
{
bool FileExists(const std::wstring& path)
{
    DWORD attributes = GetFileAttributesW(path.c_str());
    return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY) == 0;
}

std::wstring Parent(const std::wstring& directory)
{
    // directory ends with a backslash; its parent keeps one too.
    size_t slash = directory.find_last_of(L"\\/", directory.size() >= 2 ? directory.size() - 2 : 0);
    return slash == std::wstring::npos ? directory : directory.substr(0, slash + 1);
}

std::wstring Environment(const wchar_t* name)
{
    wchar_t buffer[MAX_PATH * 2];
    DWORD length = GetEnvironmentVariableW(name, buffer, MAX_PATH * 2);
    return length == 0 || length >= MAX_PATH * 2 ? std::wstring() : std::wstring(buffer, length);
}

std::wstring WithBackslash(std::wstring directory)
{
    if (!directory.empty() && directory.back() != L'\\' && directory.back() != L'/')
        directory.push_back(L'\\');
    return directory;
}

// The .NET installer records the 32-bit install in the 32-bit view of the registry.
std::wstring RegisteredX86Location()
{
    HKEY key = nullptr;
    if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, L"SOFTWARE\\dotnet\\Setup\\InstalledVersions\\x86", 0, KEY_QUERY_VALUE | KEY_WOW64_32KEY, &key) != ERROR_SUCCESS)
        return std::wstring();
    wchar_t location[MAX_PATH] = {};
    DWORD size = sizeof location - sizeof(wchar_t);
    LSTATUS status = RegGetValueW(key, nullptr, L"InstallLocation", RRF_RT_REG_SZ, nullptr, location, &size);
    RegCloseKey(key);
    return status == ERROR_SUCCESS ? std::wstring(location) : std::wstring();
}

// The 32-bit .NET host, where the .NET installer and its documented overrides put it.
std::wstring DotnetX86()
{
    std::wstring fromEnvironment = Environment(L"DOTNET_ROOT(x86)");
    if (!fromEnvironment.empty() && FileExists(WithBackslash(fromEnvironment) + L"dotnet.exe"))
        return WithBackslash(fromEnvironment) + L"dotnet.exe";
    std::wstring fromRegistry = RegisteredX86Location();
    if (!fromRegistry.empty() && FileExists(WithBackslash(fromRegistry) + L"dotnet.exe"))
        return WithBackslash(fromRegistry) + L"dotnet.exe";
    std::wstring programFiles = Environment(L"ProgramFiles(x86)");
    if (!programFiles.empty() && FileExists(WithBackslash(programFiles) + L"dotnet\\dotnet.exe"))
        return WithBackslash(programFiles) + L"dotnet\\dotnet.exe";
    return std::wstring();
}

bool LocateX86(const std::wstring& root, HelperCommand& helper, std::wstring& missing)
{
    std::wstring directory = root + L"x86\\diagext\\";
    if (FileExists(directory + L"diagext.exe"))
    {
        helper.exe = directory + L"diagext.exe";
        return true;
    }
    if (!FileExists(directory + L"diagext.dll"))
    {
        missing = L"no 32-bit diagext in " + directory;
        return false;
    }
    std::wstring dotnet = DotnetX86();
    if (dotnet.empty())
    {
        missing = L"the 32-bit diagext in " + directory + L" needs the 32-bit .NET 10 runtime (dotnet.exe x86), which is not installed";
        return false;
    }
    helper.exe = dotnet;
    helper.leadingArgs = QuoteArgument(directory + L"diagext.dll");
    return true;
}
}  // namespace

std::wstring ExtensionDirectory()
{
    HMODULE self = nullptr;
    if (!GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                            reinterpret_cast<LPCWSTR>(&ExtensionDirectory), &self))
        return std::wstring();
    std::wstring path(MAX_PATH, L'\0');
    for (;;)
    {
        DWORD length = GetModuleFileNameW(self, &path[0], static_cast<DWORD>(path.size()));
        if (length == 0)
            return std::wstring();
        if (length < path.size())
        {
            path.resize(length);
            break;
        }
        if (path.size() >= 32768)
            return std::wstring();
        path.resize(path.size() * 2);
    }
    size_t slash = path.find_last_of(L"\\/");
    return slash == std::wstring::npos ? std::wstring() : path.substr(0, slash + 1);
}

bool LocateHelper(TargetArch arch, HelperCommand& helper, std::wstring& whyNot)
{
    std::wstring here = ExtensionDirectory();
    if (here.empty())
    {
        whyNot = L"cannot tell which folder DiagExt.dll was loaded from";
        return false;
    }
    std::wstring root = Parent(here);
    std::wstring x64 = root + L"x64\\diagext\\diagext.exe";
    if (arch == TargetArch::X64)
    {
        if (FileExists(x64))
        {
            helper.exe = x64;
            return true;
        }
        whyNot = L"diagext.exe not found at " + x64 + L": copy the whole DiagExt folder (x64 and x86) from the release zip";
        return false;
    }
    std::wstring missing;
    if (LocateX86(root, helper, missing))
        return true;
    // A 64-bit diagext still reads a 32-bit dump natively (loader lock, threads, modules); only the
    // 32-bit DAC that managed detectors need cannot load into it. Better that than nothing.
    if (FileExists(x64))
    {
        helper = HelperCommand();
        helper.exe = x64;
        helper.note = missing + L"; using the 64-bit diagext, which cannot load a 32-bit .NET runtime's DAC";
        return true;
    }
    whyNot = missing + L", and no diagext.exe at " + x64;
    return false;
}
