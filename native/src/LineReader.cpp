#include "LineReader.h"

#include <windows.h>

namespace
{
bool HasControlBytes(const std::string& raw)
{
    for (unsigned char c : raw)
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return true;
    return false;
}
}  // namespace

LineReader::Status LineReader::Feed(const char* data, size_t size, std::vector<std::wstring>& lines)
{
    for (size_t i = 0; i < size; i++)
    {
        unsigned char c = static_cast<unsigned char>(data[i]);
        // Said at once, not at the end of a line that may never come.
        if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f)
            return Status::NotText;
        if (c != '\n')
        {
            m_pending.push_back(data[i]);
            if (m_pending.size() > MaxLineBytes)
                return Status::LineTooLong;
            continue;
        }
        std::string raw;
        raw.swap(m_pending);
        Status status = Emit(std::move(raw), lines);
        if (status != Status::Ok)
            return status;
    }
    return Status::Ok;
}

LineReader::Status LineReader::Finish(std::vector<std::wstring>& lines)
{
    if (m_pending.empty())
        return Status::Ok;
    std::string raw;
    raw.swap(m_pending);
    return Emit(std::move(raw), lines);
}

LineReader::Status LineReader::Emit(std::string raw, std::vector<std::wstring>& lines)
{
    if (!raw.empty() && raw.back() == '\r')
        raw.pop_back();
    if (m_first && raw.compare(0, 3, "\xEF\xBB\xBF") == 0)
        raw.erase(0, 3);
    m_first = false;
    if (HasControlBytes(raw))
        return Status::NotText;
    if (raw.empty())
    {
        lines.emplace_back();
        return Status::Ok;
    }
    int length = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, raw.data(), static_cast<int>(raw.size()), nullptr, 0);
    if (length <= 0)
        return Status::NotText;
    std::wstring line(static_cast<size_t>(length), L'\0');
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, raw.data(), static_cast<int>(raw.size()), &line[0], length);
    lines.push_back(std::move(line));
    return Status::Ok;
}
