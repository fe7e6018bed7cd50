#include "DebuggerOutput.h"

namespace
{
// Some engines cut a single output call at 16K characters; longer lines go out in pieces cut only
// outside DML elements, so no <link> is ever split between two calls.
constexpr size_t MaxChunk = 8000;

size_t SafeCut(const std::wstring& line, size_t from, bool dml)
{
    size_t limit = from + MaxChunk;
    if (limit >= line.size())
        return line.size();
    if (!dml)
        return IS_HIGH_SURROGATE(line[limit - 1]) ? limit - 1 : limit;
    // Remember the last position that is outside every tag, entity and element.
    size_t lastSafe = from;
    int depth = 0;
    bool inTag = false, closingTag = false, inEntity = false;
    for (size_t i = from; i < limit; i++)
    {
        wchar_t c = line[i];
        if (inTag)
        {
            if (c != L'>')
                continue;
            inTag = false;
            if (closingTag)
                depth = depth > 0 ? depth - 1 : 0;
            else if (line[i - 1] != L'/')
                depth++;
        }
        else if (inEntity)
        {
            if (c != L';')
                continue;
            inEntity = false;
        }
        else if (c == L'<')
        {
            inTag = true;
            closingTag = i + 1 < line.size() && line[i + 1] == L'/';
            continue;
        }
        else if (c == L'&')
        {
            inEntity = true;
            continue;
        }
        else if (IS_HIGH_SURROGATE(c))
        {
            continue;
        }
        if (depth == 0)
            lastSafe = i + 1;
    }
    return lastSafe > from ? lastSafe : limit;
}
}  // namespace

bool DebuggerOutput::Attach(IDebugClient* client)
{
    return client != nullptr && SUCCEEDED(QueryInto(client, diagext::IidDebugControl4, m_control));
}

void DebuggerOutput::Dml(const std::wstring& line) { Write(diagext::OutctlAmbientDml, DEBUG_OUTPUT_NORMAL, line); }

void DebuggerOutput::Text(const std::wstring& line) { Write(diagext::OutctlAmbientText, DEBUG_OUTPUT_NORMAL, line); }

void DebuggerOutput::Error(const std::wstring& line) { Write(diagext::OutctlAmbientText, DEBUG_OUTPUT_ERROR, line); }

bool DebuggerOutput::Interrupted() { return m_control && m_control->GetInterrupt() == S_OK; }

void DebuggerOutput::Write(ULONG outputControl, ULONG mask, const std::wstring& line)
{
    if (!m_control)
        return;
    bool dml = outputControl == diagext::OutctlAmbientDml;
    size_t from = 0;
    do
    {
        size_t to = SafeCut(line, from, dml);
        std::wstring piece = line.substr(from, to - from);
        bool last = to >= line.size();
        // The text is an argument, never the format: a '%' in it is printed, not interpreted.
        m_control->ControlledOutputWide(outputControl, mask, last ? L"%ws\n" : L"%ws", piece.c_str());
        from = to;
    } while (from < line.size());
}
