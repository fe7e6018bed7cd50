// Test host: drives Microsoft's dbgeng.dll (NuGet Microsoft.Debugging.Platform.DbgEng) the way WinDbg
// does, under Wine in the tests: open a dump, run commands, capture every output line with its kind.
//
//   engine-host.exe DBGENG.DLL DUMP [--interrupt-after MS] [--text] COMMAND...
//   engine-host.exe DBGENG.DLL --attach PID [--interrupt-after MS] COMMAND...   (noninvasive attach, as windbg -pv)
//
// --text asks the engine for plain text only, as a console debugger without DML (cdb) does: the
// engine then turns DML into text itself (links become their text, entities their characters).
// Each output line is written as "<kind>|<text>": D = DML, T = text, E = error, W = warning,
// V = verbose, O = other. Before each command: "@@@ EXECUTE <command>", after it: "@@@ HRESULT 0x...".
// --interrupt-after MS presses Ctrl+Break (SetInterrupt) MS milliseconds into the last command.
// After the last command, "@@@ CHILD <exe> <pid>" for each process the host (that is, an extension) started that
// is still running: an extension must leave none behind.
#include <windows.h>
#include <tlhelp32.h>
#include <initguid.h>
#include <dbgeng.h>
#include <stdio.h>
#include <string>
#include <vector>

namespace
{
// Not in mingw's dbgeng.h; values and IID from the Windows SDK documentation.
const IID IidOutputCallbacks2 = {0x67721fe9, 0x56d2, 0x4a44, {0xa3, 0x25, 0x2b, 0x65, 0x51, 0x3c, 0xe6, 0xeb}};
constexpr ULONG OutcbiText = 2, OutcbiDml = 4;  // DEBUG_OUTCBI_TEXT, DEBUG_OUTCBI_DML
constexpr ULONG OutcbText = 0, OutcbDml = 1, OutcbExplicitFlush = 2;

struct OutputCallbacks2 : public IUnknown
{
    virtual HRESULT STDMETHODCALLTYPE Output(ULONG mask, PCSTR text) = 0;
    virtual HRESULT STDMETHODCALLTYPE GetInterestMask(PULONG mask) = 0;
    virtual HRESULT STDMETHODCALLTYPE Output2(ULONG which, ULONG flags, ULONG64 arg, PCWSTR text) = 0;
};

std::string Utf8(const std::wstring& text)
{
    if (text.empty())
        return std::string();
    int length = WideCharToMultiByte(CP_UTF8, 0, text.data(), (int)text.size(), nullptr, 0, nullptr, nullptr);
    std::string out((size_t)length, '\0');
    WideCharToMultiByte(CP_UTF8, 0, text.data(), (int)text.size(), &out[0], length, nullptr, nullptr);
    return out;
}

class Capture final : public OutputCallbacks2
{
public:
    bool textOnly = false;

    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void** out) override
    {
        if (iid == IID_IUnknown || iid == IidOutputCallbacks2)
        {
            *out = this;
            return S_OK;
        }
        *out = nullptr;
        return E_NOINTERFACE;
    }
    ULONG STDMETHODCALLTYPE AddRef() override { return 1; }
    ULONG STDMETHODCALLTYPE Release() override { return 1; }
    HRESULT STDMETHODCALLTYPE Output(ULONG, PCSTR) override { return S_OK; }
    HRESULT STDMETHODCALLTYPE GetInterestMask(PULONG mask) override
    {
        *mask = textOnly ? OutcbiText : OutcbiText | OutcbiDml;
        return S_OK;
    }
    HRESULT STDMETHODCALLTYPE Output2(ULONG which, ULONG flags, ULONG64 mask, PCWSTR text) override
    {
        if (which == OutcbExplicitFlush || text == nullptr)
            return S_OK;
        char kind = which == OutcbDml ? 'D' : 'T';
        if (mask & DEBUG_OUTPUT_ERROR)
            kind = 'E';
        else if (mask & DEBUG_OUTPUT_WARNING)
            kind = 'W';
        else if (mask & DEBUG_OUTPUT_VERBOSE)
            kind = 'V';
        else if (!(mask & DEBUG_OUTPUT_NORMAL) && !(mask & DEBUG_OUTPUT_PROMPT))
            kind = 'O';
        for (const wchar_t* p = text; *p != 0; p++)
        {
            if (m_line.empty() && m_kind == 0)
                m_kind = kind;
            if (*p == L'\n')
                Flush();
            else
                m_line.push_back(*p);
        }
        return S_OK;
    }

    void Flush()
    {
        if (m_kind != 0 || !m_line.empty())
            printf("%c|%s\n", m_kind == 0 ? 'T' : m_kind, Utf8(m_line).c_str());
        fflush(stdout);
        m_line.clear();
        m_kind = 0;
    }

private:
    std::wstring m_line;
    char m_kind = 0;
};

struct Interrupter
{
    IDebugControl* control;
    DWORD delay;
};

DWORD WINAPI PressCtrlBreak(void* parameter)
{
    auto* interrupter = static_cast<Interrupter*>(parameter);
    Sleep(interrupter->delay);
    interrupter->control->SetInterrupt(DEBUG_INTERRUPT_ACTIVE);
    return 0;
}

void ListChildren()
{
    HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
    if (snapshot == INVALID_HANDLE_VALUE)
        return;
    PROCESSENTRY32W entry = {};
    entry.dwSize = sizeof entry;
    DWORD self = GetCurrentProcessId();
    for (BOOL more = Process32FirstW(snapshot, &entry); more; more = Process32NextW(snapshot, &entry))
        if (entry.th32ParentProcessID == self && entry.th32ProcessID != self)
            printf("@@@ CHILD %s %lu\n", Utf8(entry.szExeFile).c_str(), (unsigned long)entry.th32ProcessID);
    CloseHandle(snapshot);
    fflush(stdout);
}

int Fail(const char* what, HRESULT hr)
{
    printf("@@@ FAILED %s 0x%08lX\n", what, (unsigned long)hr);
    return 3;
}
}  // namespace

int wmain(int argc, wchar_t** argv)
{
    if (argc < 3)
    {
        fprintf(stderr, "usage: engine-host DBGENG.DLL DUMP [--interrupt-after MS] COMMAND...\n");
        return 2;
    }
    DWORD interruptAfter = 0;
    bool textOnly = false;
    ULONG attachPid = 0;
    std::vector<std::wstring> commands;
    int first = 3;
    if (wcscmp(argv[2], L"--attach") == 0 && argc > 3)
    {
        attachPid = wcstoul(argv[3], nullptr, 0);
        first = 4;
    }
    for (int i = first; i < argc; i++)
    {
        if (wcscmp(argv[i], L"--interrupt-after") == 0 && i + 1 < argc)
            interruptAfter = wcstoul(argv[++i], nullptr, 10);
        else if (wcscmp(argv[i], L"--text") == 0)
            textOnly = true;
        else
            commands.push_back(argv[i]);
    }

    // Load the engine from its own folder, so its dbghelp/dbgmodel come from there too.
    HMODULE engine = LoadLibraryExW(argv[1], nullptr, LOAD_WITH_ALTERED_SEARCH_PATH);
    if (engine == nullptr)
        return Fail("LoadLibrary", HRESULT_FROM_WIN32(GetLastError()));
    using DebugCreateFn = HRESULT(STDAPICALLTYPE*)(REFIID, PVOID*);
    auto create = reinterpret_cast<DebugCreateFn>(reinterpret_cast<void*>(GetProcAddress(engine, "DebugCreate")));
    if (create == nullptr)
        return Fail("GetProcAddress(DebugCreate)", E_NOINTERFACE);

    IDebugClient* client = nullptr;
    IDebugControl* control = nullptr;
    IDebugSymbols* symbols = nullptr;
    HRESULT hr = create(IID_IDebugClient, reinterpret_cast<void**>(&client));
    if (FAILED(hr))
        return Fail("DebugCreate", hr);
    if (FAILED(hr = client->QueryInterface(IID_IDebugControl, reinterpret_cast<void**>(&control))))
        return Fail("QueryInterface(IDebugControl)", hr);
    if (FAILED(hr = client->QueryInterface(IID_IDebugSymbols, reinterpret_cast<void**>(&symbols))))
        return Fail("QueryInterface(IDebugSymbols)", hr);
    Capture capture;
    capture.textOnly = textOnly;
    if (FAILED(hr = client->SetOutputCallbacks(reinterpret_cast<PDEBUG_OUTPUT_CALLBACKS>(&capture))))
        return Fail("SetOutputCallbacks", hr);
    symbols->SetSymbolPath("");  // no symbol server: the machine has no network, and tests must not wait on it

    if (attachPid != 0)
    {
        if (FAILED(hr = client->AttachProcess(0, attachPid, DEBUG_ATTACH_NONINVASIVE)))
            return Fail("AttachProcess", hr);
    }
    else
    {
        std::string dump = Utf8(argv[2]);
        if (FAILED(hr = client->OpenDumpFile(dump.c_str())))
            return Fail("OpenDumpFile", hr);
    }
    if (FAILED(hr = control->WaitForEvent(0, INFINITE)))
        return Fail("WaitForEvent", hr);
    capture.Flush();
    printf("@@@ OPENED\n");

    for (size_t i = 0; i < commands.size(); i++)
    {
        std::string command = Utf8(commands[i]);
        printf("@@@ EXECUTE %s\n", command.c_str());
        fflush(stdout);
        Interrupter interrupter = {control, interruptAfter};
        HANDLE thread = nullptr;
        if (interruptAfter > 0 && i + 1 == commands.size())
            thread = CreateThread(nullptr, 0, PressCtrlBreak, &interrupter, 0, nullptr);
        DWORD started = GetTickCount();
        hr = control->Execute(DEBUG_OUTCTL_THIS_CLIENT, command.c_str(), DEBUG_EXECUTE_NOT_LOGGED);
        DWORD elapsed = GetTickCount() - started;
        capture.Flush();
        if (thread != nullptr)
        {
            WaitForSingleObject(thread, INFINITE);
            CloseHandle(thread);
        }
        printf("@@@ HRESULT 0x%08lX %lu ms\n", (unsigned long)hr, (unsigned long)elapsed);
        fflush(stdout);
    }
    ListChildren();
    client->SetOutputCallbacks(nullptr);
    // Leave a live process running (a noninvasive attach resumes its threads): the test stops it itself.
    client->EndSession(attachPid != 0 ? DEBUG_END_ACTIVE_DETACH : DEBUG_END_PASSIVE);
    symbols->Release();
    control->Release();
    client->Release();
    return 0;
}
