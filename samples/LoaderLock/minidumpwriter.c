/* minidumpwriter.exe <pid> <file>: writes a full-memory minidump of another process, with the streams
 * procdump -ma asks for. Runs as its own process, as procdump or Task Manager would. */
#include <stdio.h>
#include <stdlib.h>
#include <windows.h>
#include <dbghelp.h>

int main(int argc, char **argv)
{
    if (argc != 3)
    {
        fprintf(stderr, "usage: minidumpwriter <pid> <file>\n");
        return 2;
    }
    DWORD pid = (DWORD)strtoul(argv[1], NULL, 10);
    HANDLE process = OpenProcess(PROCESS_ALL_ACCESS, FALSE, pid);
    if (process == NULL)
    {
        fprintf(stderr, "OpenProcess(%lu) failed: %lu\n", pid, GetLastError());
        return 1;
    }
    HANDLE file = CreateFileA(argv[2], GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
    if (file == INVALID_HANDLE_VALUE)
    {
        fprintf(stderr, "CreateFile(%s) failed: %lu\n", argv[2], GetLastError());
        return 1;
    }
    MINIDUMP_TYPE type = (MINIDUMP_TYPE)(MiniDumpWithFullMemory | MiniDumpWithHandleData | MiniDumpWithUnloadedModules
        | MiniDumpWithFullMemoryInfo | MiniDumpWithThreadInfo);
    BOOL ok = MiniDumpWriteDump(process, pid, file, type, NULL, NULL, NULL);
    DWORD error = GetLastError();
    CloseHandle(file);
    if (!ok)
    {
        fprintf(stderr, "MiniDumpWriteDump failed: %lu\n", error);
        return 1;
    }
    printf("dumped %lu to %s\n", pid, argv[2]);
    return 0;
}
