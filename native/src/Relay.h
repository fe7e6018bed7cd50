// Relays a helper's lines into the debugger: stdout as DML (or as text when diagext was asked for
// another format), stderr as errors; Ctrl+Break in the debugger stops the helper.
#pragma once
#include <string>
#include "DebuggerOutput.h"
#include "HelperProcess.h"

class Relay final : public HelperListener
{
public:
    Relay(DebuggerOutput& output, bool dml) : m_output(output), m_dml(dml) {}

    void OnStdoutLine(const std::wstring& line) override;
    void OnStderrLine(const std::wstring& line) override;
    bool ShouldStop() override { return m_output.Interrupted(); }

    unsigned StdoutLines() const { return m_stdoutLines; }
    unsigned StderrLines() const { return m_stderrLines; }

private:
    DebuggerOutput& m_output;
    bool m_dml;
    unsigned m_stdoutLines = 0;
    unsigned m_stderrLines = 0;
};
