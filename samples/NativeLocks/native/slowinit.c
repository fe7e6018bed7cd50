// A library whose constructor waits for the gate (libnlgate.so): it runs inside dlopen, under glibc's loader lock,
// so while it waits no other thread of the process can dlopen anything.
#include <pthread.h>

void *nl_gate(void);
void nl_constructor_enters(void);

__attribute__((constructor)) void nl_slowinit_constructor(void)
{
    nl_constructor_enters();
    pthread_mutex_lock((pthread_mutex_t *)nl_gate());
    pthread_mutex_unlock((pthread_mutex_t *)nl_gate());
}
