// Builds a Windows command line the way the C runtime of the started program will split it again.
#pragma once
#include <string>

// Quotes one argument if it needs it (spaces, tabs, quotes, empty), doubling backslashes before quotes.
std::wstring QuoteArgument(const std::wstring& argument);

// The debugger hands extension arguments over in its ANSI code page.
std::wstring FromAnsi(const char* text);
