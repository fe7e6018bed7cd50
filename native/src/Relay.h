// Relays a helper's lines into the debugger: stdout as DML (diagext run with --dml-console keeps every
// line valid DML, whatever format the user chose), stderr as errors; Ctrl+Break stops the helper.
#pragma once
#include <string>
#include "DebuggerOutput.h"
#include "HelperProcess.h"

class Relay final : public HelperListener
{
public:
    explicit Relay(DebuggerOutput& output) : m_output(output) {}

    void OnStdoutLine(const std::wstring& line) override;
    void OnStderrLine(const std::wstring& line) override;
    bool ShouldStop() override { return m_output.Interrupted(); }

    unsigned StdoutLines() const { return m_stdoutLines; }
    unsigned StderrLines() const { return m_stderrLines; }

private:
    DebuggerOutput& m_output;
    unsigned m_stdoutLines = 0;
    unsigned m_stderrLines = 0;
};
