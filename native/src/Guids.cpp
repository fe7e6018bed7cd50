// Instantiates the dbgeng interface IDs (IID_IDebugClient4, ...) once, so no import library is needed.
#include <windows.h>
#include <initguid.h>
#include <dbgeng.h>
