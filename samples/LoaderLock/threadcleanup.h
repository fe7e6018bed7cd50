#pragma once
/* The API of threadcleanup.dll (see threadcleanup.c). */
#define CLEANUP_SPIN 0
#define CLEANUP_WAIT 1
#define CLEANUP_CRITSEC 2

#ifdef THREADCLEANUP_BUILD
#define CLEANUP_API __declspec(dllexport)
#else
#define CLEANUP_API __declspec(dllimport)
#endif

CLEANUP_API void cleanup_set_mode(int mode);
CLEANUP_API void cleanup_lock(void);
CLEANUP_API void cleanup_unlock(void);
CLEANUP_API void cleanup_use_from_this_thread(void);
CLEANUP_API int cleanup_detach_started(void);
