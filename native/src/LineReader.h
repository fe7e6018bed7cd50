// Turns the bytes a helper writes into lines of UTF-16 text, and notices when they are not text:
// diagext writes UTF-8 with every control character escaped, so raw control bytes, invalid UTF-8
// or a runaway line mean the program behind the pipe is not a working diagext.
#pragma once
#include <string>
#include <vector>

class LineReader
{
public:
    enum class Status
    {
        Ok,
        NotText,
        LineTooLong,
    };

    // Longest line accepted; diagext's lines are a few hundred characters.
    static constexpr size_t MaxLineBytes = 1024 * 1024;

    // Appends bytes; each complete line is added to lines.
    Status Feed(const char* data, size_t size, std::vector<std::wstring>& lines);

    // The stream ended: a last line without a newline is added too.
    Status Finish(std::vector<std::wstring>& lines);

private:
    Status Emit(std::string raw, std::vector<std::wstring>& lines);

    std::string m_pending;
    bool m_first = true;
};
