#include "HelperProcess.h"

#include <vector>
#include <wchar.h>
#include "PipeReader.h"
#include "UniqueHandle.h"

namespace
{
// The debugger's environment with settings replacing variables of the same name (names compare without
// case, as Windows does); empty when there is nothing to change, so the helper simply inherits.
std::vector<wchar_t> EnvironmentBlock(const std::vector<EnvironmentSetting>& settings)
{
    std::vector<wchar_t> block;
    if (settings.empty())
        return block;
    wchar_t* strings = GetEnvironmentStringsW();
    if (strings == nullptr)
        return block;
    for (const wchar_t* entry = strings; *entry != L'\0'; entry += wcslen(entry) + 1)
    {
        bool replaced = false;
        for (const EnvironmentSetting& setting : settings)
        {
            size_t n = setting.name.size();
            // "=C:=C:\\dir" entries start with '=' and never match a real name.
            if (_wcsnicmp(entry, setting.name.c_str(), n) == 0 && entry[n] == L'=')
                replaced = true;
        }
        if (!replaced)
            block.insert(block.end(), entry, entry + wcslen(entry) + 1);
    }
    FreeEnvironmentStringsW(strings);
    for (const EnvironmentSetting& setting : settings)
    {
        std::wstring entry = setting.name + L"=" + setting.value;
        block.insert(block.end(), entry.c_str(), entry.c_str() + entry.size() + 1);
    }
    block.push_back(L'\0');
    return block;
}

constexpr DWORD PollMilliseconds = 25;
// After the helper exits, anything still buffered is read; a pipe some other process keeps open is
// not waited for longer than this.
constexpr DWORD DrainAfterExitMilliseconds = 500;

bool CreateOutputPipe(UniqueHandle& readEnd, UniqueHandle& writeEnd)
{
    SECURITY_ATTRIBUTES inherit = {sizeof inherit, nullptr, TRUE};
    HANDLE read = nullptr, write = nullptr;
    if (!CreatePipe(&read, &write, &inherit, 64 * 1024))
        return false;
    readEnd = UniqueHandle(read);
    writeEnd = UniqueHandle(write);
    // Only the helper gets the write end; our read end must not leak into it.
    return SetHandleInformation(read, HANDLE_FLAG_INHERIT, 0) != 0;
}

// A job that kills the helper (and anything it starts) when DiagExt closes it, even if the debugger dies.
UniqueHandle CreateKillOnCloseJob()
{
    UniqueHandle job(CreateJobObjectW(nullptr, nullptr));
    if (!job)
        return job;
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits = {};
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    if (!SetInformationJobObject(job.Get(), JobObjectExtendedLimitInformation, &limits, sizeof limits))
        job.Reset();
    return job;
}

class RunningHelper
{
public:
    RunningHelper(UniqueHandle process, UniqueHandle job) : m_process(std::move(process)), m_job(std::move(job)) {}

    HANDLE Process() const { return m_process.Get(); }

    void Terminate()
    {
        if (m_job)
            TerminateJobObject(m_job.Get(), 1);
        else
            TerminateProcess(m_process.Get(), 1);
        WaitForSingleObject(m_process.Get(), 5000);
    }

private:
    UniqueHandle m_process;
    UniqueHandle m_job;
};
}  // namespace

HelperOutcome RunHelper(const std::wstring& exe, const std::wstring& commandLine, const std::vector<EnvironmentSetting>& settings,
                        HelperListener& listener)
{
    HelperOutcome outcome;
    UniqueHandle outRead, outWrite, errRead, errWrite;
    SECURITY_ATTRIBUTES inherit = {sizeof inherit, nullptr, TRUE};
    UniqueHandle nul(CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit, OPEN_EXISTING, 0, nullptr));
    if (!CreateOutputPipe(outRead, outWrite) || !CreateOutputPipe(errRead, errWrite) || !nul)
    {
        outcome.kind = HelperOutcome::Kind::StartFailed;
        outcome.error = GetLastError();
        return outcome;
    }

    // Hand the helper exactly these three handles, not every inheritable handle the debugger has.
    HANDLE handles[] = {nul.Get(), outWrite.Get(), errWrite.Get()};
    SIZE_T attributeSize = 0;
    InitializeProcThreadAttributeList(nullptr, 1, 0, &attributeSize);
    std::vector<unsigned char> attributeBuffer(attributeSize);
    auto attributes = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(attributeBuffer.data());
    bool haveAttributes = attributeSize > 0 && InitializeProcThreadAttributeList(attributes, 1, 0, &attributeSize) &&
                          UpdateProcThreadAttribute(attributes, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, handles, sizeof handles, nullptr, nullptr);

    STARTUPINFOEXW startup = {};
    startup.StartupInfo.cb = haveAttributes ? sizeof startup : sizeof startup.StartupInfo;
    startup.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    startup.StartupInfo.hStdInput = nul.Get();
    startup.StartupInfo.hStdOutput = outWrite.Get();
    startup.StartupInfo.hStdError = errWrite.Get();
    startup.lpAttributeList = haveAttributes ? attributes : nullptr;

    std::wstring mutableCommandLine = commandLine;  // CreateProcessW may write into it
    DWORD flags = CREATE_NO_WINDOW | CREATE_SUSPENDED | CREATE_UNICODE_ENVIRONMENT | (haveAttributes ? EXTENDED_STARTUPINFO_PRESENT : 0);
    PROCESS_INFORMATION info = {};
    std::vector<wchar_t> environment = EnvironmentBlock(settings);
    BOOL started = CreateProcessW(exe.c_str(), &mutableCommandLine[0], nullptr, nullptr, TRUE, flags, environment.empty() ? nullptr : environment.data(),
                                  nullptr, &startup.StartupInfo, &info);
    DWORD startError = GetLastError();
    if (haveAttributes)
        DeleteProcThreadAttributeList(attributes);
    if (!started)
    {
        outcome.kind = HelperOutcome::Kind::StartFailed;
        outcome.error = startError;
        return outcome;
    }
    UniqueHandle thread(info.hThread);
    UniqueHandle job = CreateKillOnCloseJob();
    if (job && !AssignProcessToJobObject(job.Get(), info.hProcess))
        job.Reset();  // e.g. the debugger runs in a job that forbids nesting: terminate the process alone
    RunningHelper helper(UniqueHandle(info.hProcess), std::move(job));
    ResumeThread(thread.Get());
    // Our copies of the helper's ends must go, or the pipes would never report the helper's exit.
    outWrite.Reset();
    errWrite.Reset();
    nul.Reset();

    PipeReader out(std::move(outRead), true);
    PipeReader err(std::move(errRead), false);
    unsigned long long total = 0;
    for (;;)
    {
        if (!out.ReadAvailable(listener, total, outcome) || !err.ReadAvailable(listener, total, outcome))
        {
            helper.Terminate();
            return outcome;
        }
        if (listener.ShouldStop())
        {
            helper.Terminate();
            outcome.kind = HelperOutcome::Kind::Interrupted;
            return outcome;
        }
        if (WaitForSingleObject(helper.Process(), PollMilliseconds) != WAIT_TIMEOUT)
            break;
    }

    DWORD drainStart = GetTickCount();
    while (!(out.Closed() && err.Closed()) && GetTickCount() - drainStart < DrainAfterExitMilliseconds)
    {
        if (!out.ReadAvailable(listener, total, outcome) || !err.ReadAvailable(listener, total, outcome))
            return outcome;
        Sleep(5);
    }
    if ((!out.Closed() && !out.Flush(listener, outcome)) || (!err.Closed() && !err.Flush(listener, outcome)))
        return outcome;
    outcome.kind = HelperOutcome::Kind::Exited;
    GetExitCodeProcess(helper.Process(), &outcome.exitCode);
    return outcome;
}
