#include "CommandRunner.h"

#include <string>
#include "CommandLine.h"
#include "DebuggerOutput.h"
#include "Debuggee.h"
#include "ExitCodes.h"
#include "HelperLocator.h"
#include "HelperProcess.h"
#include "OutcomeMessage.h"
#include "Relay.h"

namespace
{
const wchar_t Prefix[] = L"DiagExt: ";

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
    // diagext keeps its stdout valid DML whatever format the user asks for (--dml-console): the extension
    // relays every line as DML and never needs to know diagext's options.
    std::wstring targetArgs = L"--dml-console";
    std::vector<EnvironmentSetting> environment;
    TargetArch arch = sizeof(void*) == 8 ? TargetArch::X64 : TargetArch::X86;
    std::wstring whyNot;
    if (help)
    {
        // diagext's own help says which commands this build has: the extension names none itself, so it
        // never advertises one that this diagext would reject.
        output.Text(L"DiagExt: !diagext runs every detector (analyze; !analyze stays WinDbg's own), !diagext NAME or !NAME one command");
        output.Text(L"DiagExt: of those below on the open dump or process, with diagext's options (the target is supplied by the debugger).");
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
        targetArgs += debuggee.isDump ? L" " + QuoteArgument(debuggee.dumpPath)
                                      : L" --pid " + std::to_wstring(debuggee.processId) + L" --no-suspend";
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
    commandLine += L" " + targetArgs;
    if (!userArgs.empty())
        commandLine += L" " + userArgs;

    Relay relay(output);
    HelperOutcome outcome = RunHelper(helper.exe, commandLine, environment, relay);
    std::wstring line = OutcomeMessage(outcome, helper.exe, relay.StdoutLines(), relay.StderrLines());
    if (!line.empty())
        output.Error(Prefix + line);
    bool ok = line.empty() && outcome.kind == HelperOutcome::Kind::Exited && Analysed(outcome.exitCode);
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

HRESULT RunDiagextCommandLine(IDebugClient* client, const char* line, const char* const* known, size_t knownCount) noexcept
{
    try
    {
        std::string text = line == nullptr ? std::string() : std::string(line);
        size_t start = text.find_first_not_of(" \t");
        // No command, or options only: the first command of the list (analyze, every detector).
        if (start == std::string::npos || text[start] == '-')
            return Run(client, known[0], start == std::string::npos ? "" : text.c_str() + start);
        size_t end = text.find_first_of(" \t", start);
        std::string name = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        std::string rest = end == std::string::npos ? std::string() : text.substr(end);
        for (size_t i = 0; i < knownCount; i++)
            if (name == known[i])
                return Run(client, known[i], rest.c_str());
        DebuggerOutput output;
        if (!output.Attach(client))
            return E_NOINTERFACE;
        output.Error(std::wstring(Prefix) + L"unknown command '" + FromAnsi(name.c_str()) + L"'; !DiagExt.help lists the commands");
        return E_INVALIDARG;
    }
    catch (...)
    {
        return E_OUTOFMEMORY;
    }
}
