// A library whose constructor never returns and waits on nothing with an owner: it sleeps until a flag nobody sets
// is set. While it sleeps inside dlopen, glibc's loader lock stays held and every other dlopen waits behind it.
#include <time.h>

static volatile int released;

void nl_constructor_enters(void);

__attribute__((constructor)) void nl_stuckinit_constructor(void)
{
    nl_constructor_enters();
    struct timespec pause = { 0, 100 * 1000 * 1000 };
    while (!released)
        nanosleep(&pause, 0);
}
