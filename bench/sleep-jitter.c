/* The limit for timing fidelity on this machine: 1000 absolute 10 ms sleeps with
 * clock_nanosleep, printing the median and p99 of how late each woke, in ms. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define COUNT 1000

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void) {
    static double late[COUNT];
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int i = 0; i < COUNT; i++) {
        struct timespec target = start;
        long long ns = target.tv_nsec + (long long)(i + 1) * 10000000LL;
        target.tv_sec += ns / 1000000000LL;
        target.tv_nsec = ns % 1000000000LL;
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, NULL);
        late[i] = now_ms() - (target.tv_sec * 1e3 + target.tv_nsec / 1e6);
    }
    qsort(late, COUNT, sizeof late[0], ascending);
    printf("%.3f %.3f\n", late[COUNT / 2], late[COUNT * 99 / 100]);
    return 0;
}
