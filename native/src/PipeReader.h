// One of the helper's output pipes: reads what is there without blocking and hands on complete lines.
#pragma once
#include <string>
#include <vector>
#include "HelperProcess.h"
#include "LineReader.h"
#include "UniqueHandle.h"

class PipeReader
{
public:
    PipeReader(UniqueHandle pipe, bool isStdout) : m_pipe(std::move(pipe)), m_isStdout(isStdout) {}

    bool Closed() const { return m_closed; }

    // Reads what is available now; false (with stop.kind set) if the output must stop the helper.
    bool ReadAvailable(HelperListener& listener, unsigned long long& total, HelperOutcome& stop);

    // The helper is gone: the last line may lack its newline.
    bool Flush(HelperListener& listener, HelperOutcome& stop);

private:
    void Deliver(HelperListener& listener, const std::vector<std::wstring>& lines);

    UniqueHandle m_pipe;
    bool m_isStdout;
    bool m_closed = false;
    LineReader m_reader;
};
