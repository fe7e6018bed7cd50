#include "CommandRunner.h"

#include <string>
#include "CommandLine.h"
#include "DebuggerOutput.h"
#include "Debuggee.h"
#include "HelperLocator.h"
#include "HelperProcess.h"
#include "OutcomeMessage.h"
#include "Relay.h"

namespace
{
const wchar_t Prefix[] = L"DiagExt: ";

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
    std::vector<EnvironmentSetting> environment;
    TargetArch arch = sizeof(void*) == 8 ? TargetArch::X64 : TargetArch::X86;
    std::wstring whyNot;
    if (help)
    {
        // diagext's own help says which commands this build has: the extension names none itself, so it
        // never advertises one that this diagext would reject.
        output.Text(L"DiagExt: each !command runs the diagext command of the same name on the open dump or process,");
        output.Text(L"DiagExt: with diagext's options, listed below (the target is supplied by the debugger).");
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
        // diagext reads it as a debugger's symbol path: srv* entries allow a DAC download, entries it does
        // not know are skipped (DIAGEXT_SYMBOL_PATH or --symbol-path still win).
        if (!debuggee.symbolPath.empty())
            environment.push_back({L"_NT_SYMBOL_PATH", debuggee.symbolPath});
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
    HelperOutcome outcome = RunHelper(helper.exe, commandLine, environment, relay);
    std::wstring line = OutcomeMessage(outcome, helper.exe, relay.StdoutLines(), relay.StderrLines());
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
