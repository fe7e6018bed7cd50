#include "PipeReader.h"

bool PipeReader::ReadAvailable(HelperListener& listener, unsigned long long& total, HelperOutcome& stop)
{
    while (!m_closed)
    {
        DWORD available = 0;
        if (!PeekNamedPipe(m_pipe.Get(), nullptr, 0, nullptr, &available, nullptr))
        {
            m_closed = true;  // broken pipe: the writer is gone
            return Flush(listener, stop);
        }
        if (available == 0)
            return true;
        char buffer[16384];
        DWORD read = 0;
        DWORD wanted = available < sizeof buffer ? available : static_cast<DWORD>(sizeof buffer);
        if (!ReadFile(m_pipe.Get(), buffer, wanted, &read, nullptr) || read == 0)
        {
            m_closed = true;
            return Flush(listener, stop);
        }
        total += read;
        if (total > MaxOutputBytes)
        {
            stop.kind = HelperOutcome::Kind::TooMuchOutput;
            return false;
        }
        std::vector<std::wstring> lines;
        LineReader::Status status = m_reader.Feed(buffer, read, lines);
        Deliver(listener, lines);
        if (status != LineReader::Status::Ok)
        {
            stop.kind = HelperOutcome::Kind::NotText;
            return false;
        }
    }
    return true;
}

bool PipeReader::Flush(HelperListener& listener, HelperOutcome& stop)
{
    std::vector<std::wstring> lines;
    LineReader::Status status = m_reader.Finish(lines);
    Deliver(listener, lines);
    if (status != LineReader::Status::Ok)
    {
        stop.kind = HelperOutcome::Kind::NotText;
        return false;
    }
    return true;
}

void PipeReader::Deliver(HelperListener& listener, const std::vector<std::wstring>& lines)
{
    for (const std::wstring& line : lines)
    {
        if (m_isStdout)
            listener.OnStdoutLine(line);
        else
            listener.OnStderrLine(line);
    }
}
