// Test stand-in for diagext.exe: misbehaves on purpose so the tests can check that the extension turns
// every failure into one line and never hangs the debugger. The behaviour is chosen by an argument
// "--fake=MODE" that the test passes as a debugger command argument (e.g. "!diagext --fake=sleep"):
//   echo     print the command line the extension built, one argument per line, and exit 0
//   env      print the _NT_SYMBOL_PATH the extension gave it (the debugger's .sympath), and exit 0
//   sleep    print one line, then wait ten minutes (Ctrl+Break must stop it)
//   garbage  write binary bytes, then wait (the extension must stop it)
//   crash    print one line, then crash with an access violation
//   silent   exit 1 without printing anything (what a diagext killed by taskkill looks like)
//   exit7    print a line on stderr and exit 7 (a code diagext never documents)
#include <windows.h>
#include <string.h>

namespace
{
void Write(const char* text)
{
    DWORD written = 0;
    WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), text, (DWORD)strlen(text), &written, nullptr);
}

void WriteEscaped(const wchar_t* text)
{
    // As diagext would: UTF-8 with the DML characters escaped, so the line is valid DML.
    char utf8[4096];
    int length = WideCharToMultiByte(CP_UTF8, 0, text, -1, utf8, sizeof utf8, nullptr, nullptr);
    for (int i = 0; i < length - 1; i++)
    {
        char c[2] = {utf8[i], 0};
        Write(c[0] == '<' ? "&lt;" : c[0] == '>' ? "&gt;" : c[0] == '&' ? "&amp;" : c[0] == '"' ? "&quot;" : c);
    }
}
}  // namespace

int wmain(int argc, wchar_t** argv)
{
    const wchar_t* mode = L"";
    for (int i = 1; i < argc; i++)
        if (wcsncmp(argv[i], L"--fake=", 7) == 0)
            mode = argv[i] + 7;

    if (wcscmp(mode, L"echo") == 0)
    {
        for (int i = 0; i < argc; i++)
        {
            Write("arg|");
            WriteEscaped(argv[i]);
            Write("\n");
        }
        return 0;
    }
    if (wcscmp(mode, L"env") == 0)
    {
        wchar_t value[4096];
        DWORD length = GetEnvironmentVariableW(L"_NT_SYMBOL_PATH", value, 4096);
        Write("env|_NT_SYMBOL_PATH=");
        WriteEscaped(length > 0 && length < 4096 ? value : L"(not set)");
        Write("\n");
        return 0;
    }
    if (wcscmp(mode, L"sleep") == 0)
    {
        Write("fake-helper: working\n");
        Sleep(600000);
        return 0;
    }
    if (wcscmp(mode, L"garbage") == 0)
    {
        DWORD written = 0;
        const char bytes[] = "\x01\x02\xff\xfe\x00\x1b[2J garbage";
        WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), bytes, sizeof bytes, &written, nullptr);
        Sleep(600000);
        return 0;
    }
    if (wcscmp(mode, L"crash") == 0)
    {
        Write("fake-helper: about to crash\n");
        *(volatile int*)nullptr = 1;
        return 0;
    }
    if (wcscmp(mode, L"silent") == 0)
        return 1;
    if (wcscmp(mode, L"exit7") == 0)
    {
        DWORD written = 0;
        WriteFile(GetStdHandle(STD_ERROR_HANDLE), "fake-helper: failing\n", 21, &written, nullptr);
        return 7;
    }
    Write("fake-helper: no --fake=MODE given\n");
    return 2;
}
