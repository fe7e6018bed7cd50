// Runs the diagext helper with its output piped back, and stops it when asked. The debugger thread
// that calls Run never blocks on the helper for more than a few milliseconds at a time, so a helper
// that hangs, floods or dies can never hang the debugger.
#pragma once
#include <windows.h>
#include <string>
#include <vector>

// What Run reports while the helper runs.
class HelperListener
{
public:
    virtual void OnStdoutLine(const std::wstring& line) = 0;
    virtual void OnStderrLine(const std::wstring& line) = 0;
    // Polled every few milliseconds: true stops the helper (Ctrl+Break).
    virtual bool ShouldStop() = 0;

protected:
    ~HelperListener() = default;
};

struct HelperOutcome
{
    enum class Kind
    {
        Exited,         // exitCode is the helper's
        StartFailed,    // error is CreateProcess's GetLastError
        Interrupted,    // the listener asked to stop; the helper was terminated
        NotText,        // the helper wrote something that is not diagext's text; terminated
        TooMuchOutput,  // more than MaxOutputBytes; terminated
    };

    Kind kind = Kind::Exited;
    DWORD exitCode = 0;
    DWORD error = 0;
};

// Output beyond this is not something a person reads in a debugger window.
constexpr unsigned long long MaxOutputBytes = 64ull * 1024 * 1024;

// One environment variable the helper gets on top of (or instead of) the debugger's own.
struct EnvironmentSetting
{
    std::wstring name;
    std::wstring value;
};

// Starts exe with commandLine (argv[0] included) and the debugger's environment plus settings, relays its
// lines to listener until it exits or must stop.
HelperOutcome RunHelper(const std::wstring& exe, const std::wstring& commandLine, const std::vector<EnvironmentSetting>& settings,
                        HelperListener& listener);
