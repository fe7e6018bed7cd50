#include "OutcomeMessage.h"
#include "ExitCodes.h"

namespace
{
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

}  // namespace

std::wstring OutcomeMessage(const HelperOutcome& outcome, const std::wstring& exe, unsigned stdoutLines, unsigned stderrLines)
{
    switch (outcome.kind)
    {
    case HelperOutcome::Kind::StartFailed:
        return L"cannot start " + exe + L": " + SystemMessage(outcome.error);
    case HelperOutcome::Kind::Interrupted:
        return L"cancelled (Ctrl+Break); diagext was ended";
    case HelperOutcome::Kind::NotText:
        return exe + L" wrote output that is not diagext's text, so it was stopped; is it the diagext that came with this DiagExt.dll?";
    case HelperOutcome::Kind::TooMuchOutput:
        return L"diagext wrote more than 64 MB of output, so it was stopped";
    case HelperOutcome::Kind::Exited:
        break;
    }
    bool said = stdoutLines + stderrLines > 0;
    if (Analysed(outcome.exitCode) && !said)
        return L"diagext ended with exit code " + std::to_wstring(outcome.exitCode) + L" without printing anything; was it stopped from outside?";
    if (Analysed(outcome.exitCode) || (outcome.exitCode == static_cast<DWORD>(DiagextExit::InputError) && stderrLines > 0))
        return std::wstring();
    return L"diagext ended unexpectedly with exit code " + Hex(outcome.exitCode) + KnownExitCode(outcome.exitCode) +
           L"; the debugging session is not affected";
}
