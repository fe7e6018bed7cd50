// The one line that says how a helper run ended when it did not end normally.
#pragma once
#include <string>
#include "HelperProcess.h"

// Empty when diagext finished and has said all there is to say (exit code 0, 1, or 2 with its own error line).
std::wstring OutcomeMessage(const HelperOutcome& outcome, const std::wstring& exe, unsigned stdoutLines, unsigned stderrLines);
