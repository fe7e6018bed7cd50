// What DiagExt needs from dbgeng.h beyond what mingw-w64's copy declares. mingw's header stops at
// IDebugControl3 and has no DML output controls; the values below are the Windows SDK's documented
// ones (DEBUG_OUTCTL_XXX, IDebugControl4). Declared under our own names so the same code also
// compiles against the Windows SDK's dbgeng.h with MSVC.
#pragma once
#include <windows.h>
#include <dbgeng.h>

namespace diagext
{
// Output controls: "ambient" = the caller's current output target, as DML or as plain text.
constexpr ULONG OutctlAmbientDml = 0xfffffffe;   // DEBUG_OUTCTL_AMBIENT_DML
constexpr ULONG OutctlAmbientText = 0xffffffff;  // DEBUG_OUTCTL_AMBIENT_TEXT

// IDebugControl4 {94e60ce9-9b41-4b19-9fc0-6d9eb35272b3}: IDebugControl3's methods, then these, in
// this order. Only the prefix up to ControlledOutputWide is declared: DiagExt calls nothing later,
// and never implements the interface.
const IID IidDebugControl4 = {0x94e60ce9, 0x9b41, 0x4b19, {0x9f, 0xc0, 0x6d, 0x9e, 0xb3, 0x52, 0x72, 0xb3}};

struct DebugControl4Prefix : public IDebugControl3
{
    virtual HRESULT STDMETHODCALLTYPE GetLogFileWide(PWSTR buffer, ULONG size, PULONG fileSize, PBOOL append) = 0;
    virtual HRESULT STDMETHODCALLTYPE OpenLogFileWide(PCWSTR file, BOOL append) = 0;
    virtual HRESULT STDMETHODCALLTYPE InputWide(PWSTR buffer, ULONG size, PULONG inputSize) = 0;
    virtual HRESULT STDMETHODCALLTYPE ReturnInputWide(PCWSTR buffer) = 0;
    virtual HRESULT STDMETHODVCALLTYPE OutputWide(ULONG mask, PCWSTR format, ...) = 0;
    virtual HRESULT STDMETHODCALLTYPE OutputVaListWide(ULONG mask, PCWSTR format, va_list args) = 0;
    virtual HRESULT STDMETHODVCALLTYPE ControlledOutputWide(ULONG outputControl, ULONG mask, PCWSTR format, ...) = 0;
};
}  // namespace diagext
