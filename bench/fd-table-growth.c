// What growing the descriptor table costs the thread that opens a descriptor past its end, in a
// process with one thread and in one with two (where Linux waits for an RCU grace period).
// Run by hand: cc -O2 -pthread -o /tmp/fd-table-growth bench/fd-table-growth.c && /tmp/fd-table-growth
// Prints each open that took longer than 0.5 ms, for descriptors up to 4,100, both ways.
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void *idle(void *unused) { (void)unused; pause(); return NULL; }

static double milliseconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void open_up_to(int highest, const char *label) {
  int first = -1, last = -1;
  for (int i = 0; i < highest; i++) {
    double start = milliseconds();
    int fd = open("/dev/null", O_RDONLY);
    double took = milliseconds() - start;
    if (fd < 0) break;
    if (first < 0) first = fd;
    last = fd;
    if (took > 0.5) printf("%s: descriptor %d took %.2f ms\n", label, fd, took);
    if (fd >= highest) break;
  }
  for (int fd = first; fd >= 0 && fd <= last; fd++) close(fd);
}

int main(void) {
  struct rlimit limit;
  getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_cur < 4200) { printf("needs a descriptor limit of 4,200 (ulimit -n)\n"); return 3; }
  // One thread: the table grows as descriptors open, and never shrinks.
  open_up_to(4100, "one thread");
  fflush(stdout);
  // Two threads, in a fresh process whose table starts small.
  if (fork() == 0) {
    pthread_t thread;
    pthread_create(&thread, NULL, idle, NULL);
    open_up_to(4100, "two threads");
    fflush(stdout);
    _exit(0);
  }
  int status;
  wait(&status);
  return 0;
}
