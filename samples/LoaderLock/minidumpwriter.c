/* minidumpwriter.exe [--suspend] <pid> <file>: writes a full-memory minidump of another process, with the streams
 * procdump -ma asks for. Runs as its own process, as procdump or Task Manager would.
 *
 * Handle data: Wine's dbghelp does not write the handle stream MiniDumpWithHandleData asks for (its minidump.c:
 * "NIY MiniDumpWithHandleData"), so this writer adds it after MiniDumpWriteDump returns, as Windows' writer lays it
 * out: MINIDUMP_HANDLE_DATA_STREAM with MINIDUMP_HANDLE_DESCRIPTOR_2 entries (type name, basic counts) and, for a
 * thread handle, a MiniThreadInformation1 record holding the thread's THREAD_BASIC_INFORMATION (its client id and
 * TEB). The handles are found as a debugger finds them: DuplicateHandle on each handle value, then NtQueryObject.
 *
 * --suspend: suspends every thread of the process while the dump is written, so memory and registers are read at
 * the same moment. Without it Wine's writer pauses each thread only while it reads that thread's registers and
 * copies memory afterwards, while the process runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>
#include <winternl.h>
#include <tlhelp32.h>
#include <dbghelp.h>

#define HANDLE_DATA_STREAM 12
#define MINI_THREAD_INFORMATION_1 1
#define MAX_HANDLE_VALUE 0x10000
#define MAX_HANDLES 4096
#define MAX_SUSPENDED 1024

#pragma pack(push, 4)
typedef struct
{
    ULONG32 SizeOfHeader;
    ULONG32 SizeOfDescriptor;
    ULONG32 NumberOfDescriptors;
    ULONG32 Reserved;
} handle_data_header;

typedef struct
{
    ULONG64 Handle;
    RVA TypeNameRva;
    RVA ObjectNameRva;
    ULONG32 Attributes;
    ULONG32 GrantedAccess;
    ULONG32 HandleCount;
    ULONG32 PointerCount;
    RVA ObjectInfoRva;
    ULONG32 Reserved0;
} handle_descriptor_2;

typedef struct
{
    RVA NextInfoRva;
    ULONG32 InfoType;
    ULONG32 SizeOfInfo;
} handle_object_information;
#pragma pack(pop)

typedef struct
{
    NTSTATUS ExitStatus;
    PVOID TebBaseAddress;
    CLIENT_ID ClientId;
    ULONG_PTR AffinityMask;
    LONG Priority;
    LONG BasePriority;
} thread_basic_information;

typedef struct
{
    ULONG64 value;
    WCHAR type[64];
    PUBLIC_OBJECT_BASIC_INFORMATION basic;
    int is_thread;
    thread_basic_information thread;
} handle_entry;

static int collect_handles(HANDLE process, handle_entry *entries, int max)
{
    int count = 0;
    for (ULONG64 value = 4; value < MAX_HANDLE_VALUE && count < max; value += 4)
    {
        HANDLE copy;
        if (!DuplicateHandle(process, (HANDLE)(ULONG_PTR)value, GetCurrentProcess(), &copy, 0, FALSE, DUPLICATE_SAME_ACCESS))
            continue;
        handle_entry *e = &entries[count];
        memset(e, 0, sizeof *e);
        e->value = value;
        union
        {
            PUBLIC_OBJECT_TYPE_INFORMATION info;
            BYTE bytes[1024];
        } type;
        ULONG length = 0;
        if (NtQueryObject(copy, ObjectTypeInformation, &type, sizeof type, &length) == 0 && type.info.TypeName.Buffer != NULL)
        {
            size_t chars = type.info.TypeName.Length / sizeof(WCHAR);
            if (chars >= sizeof e->type / sizeof(WCHAR))
                chars = sizeof e->type / sizeof(WCHAR) - 1;
            memcpy(e->type, type.info.TypeName.Buffer, chars * sizeof(WCHAR));
        }
        NtQueryObject(copy, ObjectBasicInformation, &e->basic, sizeof e->basic, &length);
        if (wcscmp(e->type, L"Thread") == 0
            && NtQueryInformationThread(copy, ThreadBasicInformation, &e->thread, sizeof e->thread, &length) == 0)
            e->is_thread = 1;
        CloseHandle(copy);
        count++;
    }
    return count;
}

static BOOL write_at(HANDLE file, ULONG64 offset, const void *data, DWORD size)
{
    LARGE_INTEGER at;
    at.QuadPart = (LONGLONG)offset;
    DWORD written;
    return SetFilePointerEx(file, at, NULL, FILE_BEGIN) && WriteFile(file, data, size, &written, NULL) && written == size;
}

static BOOL read_at(HANDLE file, ULONG64 offset, void *data, DWORD size)
{
    LARGE_INTEGER at;
    at.QuadPart = (LONGLONG)offset;
    DWORD read;
    return SetFilePointerEx(file, at, NULL, FILE_BEGIN) && ReadFile(file, data, size, &read, NULL) && read == size;
}

/* Where the full memory ends: BaseRva plus every range's DataSize. Wine's writer lists the ranges first and skips
 * one it can no longer read (unmapped meanwhile, by a FreeLibrary) without writing its bytes: in the middle of the
 * list that leaves zeros, at its end a file shorter than the list claims. 0 when unreadable. */
static ULONG64 memory64_end(HANDLE file, const MINIDUMP_DIRECTORY *entry)
{
    MINIDUMP_MEMORY64_LIST list;
    if (entry->Location.DataSize < sizeof list || !read_at(file, entry->Location.Rva, &list, sizeof list)
        || list.NumberOfMemoryRanges > (entry->Location.DataSize - sizeof list) / sizeof(MINIDUMP_MEMORY_DESCRIPTOR64))
        return 0;
    ULONG64 end = list.BaseRva;
    for (ULONG64 i = 0; i < list.NumberOfMemoryRanges; i++)
    {
        MINIDUMP_MEMORY_DESCRIPTOR64 range;
        if (!read_at(file, entry->Location.Rva + sizeof list + i * sizeof range, &range, sizeof range))
            return 0;
        end += range.DataSize;
    }
    return end;
}

/* Appends the handle stream after everything the dump claims (the file's end, or the end of the full memory when
 * Wine left the file short of it: a stream at the file's end would lie inside the last range) and points a free
 * (UnusedStream) directory entry at it; both Wine's and Microsoft's writers pad the directory with such entries. */
static BOOL append_handle_stream(HANDLE file, const handle_entry *entries, int count)
{
    MINIDUMP_HEADER header;
    if (!read_at(file, 0, &header, sizeof header))
        return FALSE;
    ULONG32 free_entry = header.NumberOfStreams;
    ULONG64 claimed = 0;
    for (ULONG32 i = 0; i < header.NumberOfStreams; i++)
    {
        MINIDUMP_DIRECTORY entry;
        if (!read_at(file, header.StreamDirectoryRva + (ULONG64)i * sizeof entry, &entry, sizeof entry))
            return FALSE;
        if (entry.StreamType == HANDLE_DATA_STREAM)
            return TRUE; /* the writer wrote its own */
        if (entry.StreamType == UnusedStream && free_entry == header.NumberOfStreams)
            free_entry = i;
        if (entry.StreamType == Memory64ListStream)
        {
            ULONG64 end = memory64_end(file, &entry);
            claimed = end > claimed ? end : claimed;
        }
    }
    if (free_entry == header.NumberOfStreams)
    {
        fprintf(stderr, "no free stream directory entry for the handle stream\n");
        return FALSE;
    }

    LARGE_INTEGER size;
    if (!GetFileSizeEx(file, &size) || size.QuadPart > 0xFFFFFFF0LL)
        return FALSE; /* RVAs are 32-bit: the stream must start below 4 GB */
    ULONG64 end = (ULONG64)size.QuadPart > claimed ? (ULONG64)size.QuadPart : claimed;
    if (end > 0xFFFFFFF0ULL)
        return FALSE;
    ULONG64 base = (end + 7) & ~7ULL; /* past a short file's end: the gap reads as zeros, as a skipped range does */
    DWORD descriptors = (DWORD)count * sizeof(handle_descriptor_2);
    ULONG64 tail = base + sizeof(handle_data_header) + descriptors; /* strings and object records follow */
    handle_data_header stream_header = { sizeof stream_header, sizeof(handle_descriptor_2), (ULONG32)count, 0 };
    if (!write_at(file, base, &stream_header, sizeof stream_header))
        return FALSE;
    for (int i = 0; i < count; i++)
    {
        const handle_entry *e = &entries[i];
        handle_descriptor_2 d;
        memset(&d, 0, sizeof d);
        d.Handle = e->value;
        d.Attributes = e->basic.Attributes;
        d.GrantedAccess = e->basic.GrantedAccess;
        d.HandleCount = e->basic.HandleCount;
        d.PointerCount = e->basic.PointerCount;
        if (e->type[0] != 0)
        {
            ULONG32 bytes = (ULONG32)(wcslen(e->type) * sizeof(WCHAR));
            d.TypeNameRva = (RVA)tail;
            if (!write_at(file, tail, &bytes, sizeof bytes) || !write_at(file, tail + 4, e->type, bytes + sizeof(WCHAR)))
                return FALSE;
            tail = (tail + 4 + bytes + sizeof(WCHAR) + 3) & ~3ULL;
        }
        if (e->is_thread)
        {
            handle_object_information info = { 0, MINI_THREAD_INFORMATION_1, sizeof e->thread };
            d.ObjectInfoRva = (RVA)tail;
            if (!write_at(file, tail, &info, sizeof info) || !write_at(file, tail + sizeof info, &e->thread, sizeof e->thread))
                return FALSE;
            tail = (tail + sizeof info + sizeof e->thread + 3) & ~3ULL;
        }
        if (!write_at(file, base + sizeof stream_header + (ULONG64)i * sizeof d, &d, sizeof d))
            return FALSE;
    }
    if (tail > 0xFFFFFFFFULL)
        return FALSE;
    MINIDUMP_DIRECTORY entry = { HANDLE_DATA_STREAM, { (ULONG32)(sizeof stream_header + descriptors), (RVA)base } };
    return write_at(file, header.StreamDirectoryRva + (ULONG64)free_entry * sizeof entry, &entry, sizeof entry);
}

/* Suspends every thread of the process; returns how many handles it filled (resume and close them after). */
static int suspend_all(DWORD pid, HANDLE *threads, int max)
{
    int count = 0;
    HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0);
    if (snapshot == INVALID_HANDLE_VALUE)
        return 0;
    THREADENTRY32 entry;
    entry.dwSize = sizeof entry;
    for (BOOL more = Thread32First(snapshot, &entry); more && count < max; more = Thread32Next(snapshot, &entry))
    {
        if (entry.th32OwnerProcessID != pid)
            continue;
        HANDLE thread = OpenThread(THREAD_SUSPEND_RESUME, FALSE, entry.th32ThreadID);
        if (thread == NULL)
            continue;
        if (SuspendThread(thread) == (DWORD)-1)
        {
            CloseHandle(thread);
            continue;
        }
        threads[count++] = thread;
    }
    CloseHandle(snapshot);
    return count;
}

int main(int argc, char **argv)
{
    int suspend = argc == 4 && strcmp(argv[1], "--suspend") == 0;
    if (argc != 3 && !suspend)
    {
        fprintf(stderr, "usage: minidumpwriter [--suspend] <pid> <file>\n");
        return 2;
    }
    DWORD pid = (DWORD)strtoul(argv[argc - 2], NULL, 10);
    const char *path = argv[argc - 1];
    HANDLE process = OpenProcess(PROCESS_ALL_ACCESS, FALSE, pid);
    if (process == NULL)
    {
        fprintf(stderr, "OpenProcess(%lu) failed: %lu\n", pid, GetLastError());
        return 1;
    }
    HANDLE file = CreateFileA(path, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
    if (file == INVALID_HANDLE_VALUE)
    {
        fprintf(stderr, "CreateFile(%s) failed: %lu\n", path, GetLastError());
        return 1;
    }
    static HANDLE suspended[MAX_SUSPENDED];
    int suspended_count = suspend ? suspend_all(pid, suspended, MAX_SUSPENDED) : 0;
    static handle_entry handles[MAX_HANDLES];
    int handle_count = collect_handles(process, handles, MAX_HANDLES);
    MINIDUMP_TYPE type = (MINIDUMP_TYPE)(MiniDumpWithFullMemory | MiniDumpWithHandleData | MiniDumpWithUnloadedModules
        | MiniDumpWithFullMemoryInfo | MiniDumpWithThreadInfo);
    BOOL ok = MiniDumpWriteDump(process, pid, file, type, NULL, NULL, NULL);
    DWORD error = GetLastError();
    for (int i = 0; i < suspended_count; i++)
    {
        ResumeThread(suspended[i]);
        CloseHandle(suspended[i]);
    }
    if (ok && !append_handle_stream(file, handles, handle_count))
    {
        fprintf(stderr, "adding the handle stream failed: %lu\n", GetLastError());
        ok = FALSE;
        error = 0;
    }
    CloseHandle(file);
    if (!ok)
    {
        fprintf(stderr, "MiniDumpWriteDump failed: %lu\n", error);
        return 1;
    }
    if (suspend)
        printf("dumped %lu to %s (%d handles, %d threads suspended)\n", pid, path, handle_count, suspended_count);
    else
        printf("dumped %lu to %s (%d handles)\n", pid, path, handle_count);
    return 0;
}
