#include "Relay.h"

void Relay::OnStdoutLine(const std::wstring& line)
{
    m_stdoutLines++;
    m_output.Dml(line);
}

void Relay::OnStderrLine(const std::wstring& line)
{
    m_stderrLines++;
    m_output.Error(line);
}
