#include "Relay.h"

void Relay::OnStdoutLine(const std::wstring& line)
{
    m_stdoutLines++;
    if (m_dml)
        m_output.Dml(line);
    else
        m_output.Text(line);
}

void Relay::OnStderrLine(const std::wstring& line)
{
    m_stderrLines++;
    m_output.Error(line);
}
