// The gate the dlopen mode's library constructor waits for: a plain pthread mutex that a managed thread takes
// through P/Invoke before the constructor runs.
#include <pthread.h>

static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static volatile int constructor_entered;

void *nl_gate(void) { return &gate; }

int nl_gate_take(void) { return pthread_mutex_lock(&gate); }

int nl_gate_release(void) { return pthread_mutex_unlock(&gate); }

void nl_constructor_enters(void) { __atomic_store_n(&constructor_entered, 1, __ATOMIC_SEQ_CST); }

int nl_constructor_entered(void) { return __atomic_load_n(&constructor_entered, __ATOMIC_SEQ_CST); }
