/* Preloaded under valgrind by bench/round-trip-costs: libdispatch's main thread waits in
 * sigsuspend() on a mask in read-only memory, and valgrind 3.19 writes to that mask and
 * crashes. This passes a writable copy of it; nothing else changes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>

int sigsuspend(const sigset_t *mask) {
    static int (*real)(const sigset_t *);
    sigset_t copy = *mask;
    if (!real) real = (int (*)(const sigset_t *))dlsym(RTLD_NEXT, "sigsuspend");
    return real(&copy);
}
