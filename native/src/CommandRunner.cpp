#include "CommandRunner.h"

#include <string>
#include "CommandLine.h"
#include "DebuggerOutput.h"
#include "Debuggee.h"
#include "HelperLocator.h"
#include "HelperProcess.h"

namespace
{
const wchar_t Prefix[] = L"DiagExt: ";

// Relays the helper's lines: stdout as DML (or text for help), stderr as errors; Ctrl+Break stops it.
class Relay final : public HelperListener
{
public:
    Relay(DebuggerOutput& output, bool dml) : m_output(output), m_dml(dml) {}

    void OnStdoutLine(const std::wstring& line) override
    {
        m_stdoutLines++;
        if (m_dml)
            m_output.Dml(line);
        else
            m_output.Text(line);
    }

    void OnStderrLine(const std::wstring& line) override
    {
        m_stderrLines++;
        m_output.Error(line);
    }

    bool ShouldStop() override { return m_output.Interrupted(); }

    unsigned StdoutLines() const { return m_stdoutLines; }

    unsigned StderrLines() const { return m_stderrLines; }

private:
    DebuggerOutput& m_output;
    bool m_dml;
    unsigned m_stdoutLines = 0;
    unsigned m_stderrLines = 0;
};

std::wstring Hex(DWORD value)
{
    wchar_t text[16];
    wsprintfW(text, L"0x%08X", value);
    return text;
}

std::wstring SystemMessage(DWORD error)
{
    wchar_t* buffer = nullptr;
    DWORD length = FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr,
                                  error, 0, reinterpret_cast<LPWSTR>(&buffer), 0, nullptr);
    std::wstring message = length > 0 && buffer != nullptr ? std::wstring(buffer, length) : L"error " + std::to_wstring(error);
    if (buffer != nullptr)
        LocalFree(buffer);
    while (!message.empty() && (message.back() == L'\n' || message.back() == L'\r' || message.back() == L' ' || message.back() == L'.'))
        message.pop_back();
    return message;
}

const wchar_t* KnownExitCode(DWORD code)
{
    switch (code)
    {
    case 0xC0000005: return L" (access violation)";
    case 0xC00000FD: return L" (stack overflow)";
    case 0xC0000409: return L" (fail-fast)";
    case 0xE0434352: return L" (unhandled .NET exception)";
    case 0xC0000135: return L" (a DLL it needs was not found)";
    default: return L"";
    }
}

// The one line for a helper that did not finish normally; empty when there is nothing to add.
std::wstring OutcomeLine(const HelperOutcome& outcome, const HelperCommand& helper, const Relay& relay)
{
    switch (outcome.kind)
    {
    case HelperOutcome::Kind::StartFailed:
        return L"cannot start " + helper.exe + L": " + SystemMessage(outcome.error);
    case HelperOutcome::Kind::Interrupted:
        return L"stopped by Ctrl+Break; diagext was ended";
    case HelperOutcome::Kind::NotText:
        return helper.exe + L" wrote output that is not diagext's text, so it was stopped; is it the diagext that came with this DiagExt.dll?";
    case HelperOutcome::Kind::TooMuchOutput:
        return L"diagext wrote more than 64 MB of output, so it was stopped";
    case HelperOutcome::Kind::Exited:
        break;
    }
    // 0 nothing found, 1 hazards found, 2 input error (diagext has said why on stderr).
    bool said = relay.StdoutLines() + relay.StderrLines() > 0;
    if ((outcome.exitCode == 0 || outcome.exitCode == 1) && !said)
        return L"diagext ended with exit code " + std::to_wstring(outcome.exitCode) + L" without printing anything; was it stopped from outside?";
    if (outcome.exitCode == 0 || outcome.exitCode == 1 || (outcome.exitCode == 2 && relay.StderrLines() > 0))
        return std::wstring();
    return L"diagext ended unexpectedly with exit code " + Hex(outcome.exitCode) + KnownExitCode(outcome.exitCode) +
           L"; the debugging session is not affected";
}

// True if the user chose an output format (--json, --format X): then diagext's output is not DML.
bool ChoosesFormat(const std::wstring& userArgs)
{
    size_t start = 0;
    while (start < userArgs.size())
    {
        size_t end = userArgs.find_first_of(L" \t", start);
        std::wstring token = userArgs.substr(start, end == std::wstring::npos ? std::wstring::npos : end - start);
        if (token == L"--json" || token == L"--format" || token.compare(0, 9, L"--format=") == 0)
            return true;
        if (end == std::wstring::npos)
            break;
        start = end + 1;
    }
    return false;
}

std::wstring Trim(const std::wstring& text)
{
    size_t first = text.find_first_not_of(L" \t");
    size_t last = text.find_last_not_of(L" \t\r\n");
    return first == std::wstring::npos ? std::wstring() : text.substr(first, last - first + 1);
}

HRESULT Run(IDebugClient* client, const char* command, const char* args)
{
    DebuggerOutput output;
    if (!output.Attach(client))
        return E_NOINTERFACE;
    std::wstring name = FromAnsi(command);
    bool help = name == L"help";
    std::wstring userArgs = Trim(FromAnsi(args));
    bool dml = !help && !ChoosesFormat(userArgs);
    std::wstring targetArgs;
    TargetArch arch = sizeof(void*) == 8 ? TargetArch::X64 : TargetArch::X86;
    std::wstring whyNot;
    if (help)
    {
        output.Text(L"DiagExt: !analyze, !dictcycle, !loaderlock, !wcfhang and !ctororder run diagext on the open dump or process;");
        output.Text(L"DiagExt: they take diagext's options, shown below (the target is supplied by the debugger).");
    }
    else
    {
        Debuggee debuggee;
        if (!DescribeDebuggee(client, debuggee, whyNot))
        {
            output.Error(Prefix + whyNot);
            return E_FAIL;
        }
        arch = debuggee.arch;
        // The debugger has already stopped a live target; diagext must not suspend threads itself,
        // or a diagext killed by Ctrl+Break would leave them suspended.
        targetArgs = debuggee.isDump ? QuoteArgument(debuggee.dumpPath)
                                     : L"--pid " + std::to_wstring(debuggee.processId) + L" --no-suspend";
        if (dml)
            targetArgs += L" --format dml";
    }

    HelperCommand helper;
    if (!LocateHelper(arch, helper, whyNot))
    {
        output.Error(Prefix + whyNot);
        return E_FAIL;
    }
    if (!helper.note.empty() && !help)  // help reads the same from either diagext
        output.Error(Prefix + helper.note);

    std::wstring commandLine = QuoteArgument(helper.exe);
    if (!helper.leadingArgs.empty())
        commandLine += L" " + helper.leadingArgs;
    commandLine += L" " + name;
    if (!targetArgs.empty())
        commandLine += L" " + targetArgs;
    if (!userArgs.empty())
        commandLine += L" " + userArgs;

    Relay relay(output, dml);
    HelperOutcome outcome = RunHelper(helper.exe, commandLine, relay);
    std::wstring line = OutcomeLine(outcome, helper, relay);
    if (!line.empty())
        output.Error(Prefix + line);
    bool ok = line.empty() && outcome.kind == HelperOutcome::Kind::Exited && (outcome.exitCode == 0 || outcome.exitCode == 1);
    return ok ? S_OK : E_FAIL;
}
}  // namespace

HRESULT RunDiagextCommand(IDebugClient* client, const char* command, const char* args) noexcept
{
    try
    {
        return Run(client, command, args);
    }
    catch (...)
    {
        // Out of memory is the only thing that can throw here; nothing may cross into the engine.
        return E_OUTOFMEMORY;
    }
}
