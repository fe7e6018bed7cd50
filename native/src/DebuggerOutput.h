// Writes lines to the debugger's command window through the engine (never to stdout), as DML or as
// plain text, and reports whether the user pressed Ctrl+Break.
#pragma once
#include <string>
#include "ComPtr.h"
#include "DbgEngCompat.h"

class DebuggerOutput
{
public:
    // False if the engine lacks IDebugControl4 (engines older than WinDbg 6.x): nothing can be shown then.
    bool Attach(IDebugClient* client);

    // A line of DML produced by diagext: it renders links; target strings in it are already escaped.
    void Dml(const std::wstring& line);

    // A line shown verbatim: the engine does not interpret markup in it.
    void Text(const std::wstring& line);

    // A plain-text line on the error channel (red in WinDbg).
    void Error(const std::wstring& line);

    // True once the user has pressed Ctrl+Break (IDebugControl::GetInterrupt).
    bool Interrupted();

private:
    void Write(ULONG outputControl, ULONG mask, const std::wstring& line);

    ComPtr<diagext::DebugControl4Prefix> m_control;
};
