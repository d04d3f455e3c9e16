#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#ifdef __linux__
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#endif
#include "CSpawnExtras.h"

int become_child_subreaper(void) {
#ifdef PR_SET_CHILD_SUBREAPER
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : errno;
#else
    return ENOSYS;
#endif
}

int tun_open(const char *name) {
#ifdef __linux__
    int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    struct ifreq request;
    memset(&request, 0, sizeof request);
    request.ifr_flags = IFF_TUN | IFF_NO_PI;
    strncpy(request.ifr_name, name, IFNAMSIZ - 1);
    if (ioctl(fd, TUNSETIFF, &request) < 0) {
        int code = errno;
        close(fd);
        errno = code;
        return -1;
    }
    return fd;
#else
    (void)name;
    errno = ENOSYS;
    return -1;
#endif
}

#ifdef __linux__
/// One spawn, handed to the spawner thread.
struct spawn_request {
    const char *path;
    char *const *argv;
    char *const *envp;
    const char *directory;
    int stdin_fd, stdout_fd, stderr_fd;
    pid_t result;
    int done;
};

static pthread_mutex_t spawner_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t spawner_wake = PTHREAD_COND_INITIALIZER;
static pthread_once_t spawner_once = PTHREAD_ONCE_INIT;
static struct spawn_request *pending_request;
static int spawner_started;

/// Closes every descriptor from `low` to `high`, inclusive, without allocating.
static void close_between(unsigned low, unsigned high) {
    if (low > high) return;
    if (syscall(SYS_close_range, low, high, 0) == 0) return;
    for (unsigned fd = low; fd <= high && fd < 65536; fd++) close((int)fd);
}

/// In the child, between fork and exec: async-signal-safe calls only. Writes errno to
/// `report` when something fails.
static void become_subject(struct spawn_request *request, pid_t parent, int report) {
    setpgid(0, 0);
    int reset[] = {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD};
    for (unsigned i = 0; i < sizeof reset / sizeof reset[0]; i++) signal(reset[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int code = 0;
    // The kernel kills it when tcpprobe ends, however it ends (SIGKILL included); if tcpprobe
    // is gone already, it must not run at all.
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) code = errno;
    else if (getppid() != parent) code = ESRCH;
    int input = request->stdin_fd >= 0 ? request->stdin_fd : open("/dev/null", O_RDONLY);
    if (code == 0 && (input < 0 || dup2(input, 0) < 0)) code = errno;
    if (code == 0 && chdir(request->directory) != 0) code = errno;
    if (code == 0 && (dup2(request->stdout_fd, 1) < 0 || dup2(request->stderr_fd, 2) < 0)) code = errno;
    if (code == 0) {
        // Nothing else of the probe's goes with it, but the report pipe (close-on-exec).
        close_between(3, (unsigned)report - 1);
        close_between((unsigned)report + 1, ~0U);
        execve(request->path, request->argv, request->envp);
        code = errno;
    }
    ssize_t written = write(report, &code, sizeof code);
    (void)written;
    _exit(127);
}

static pid_t spawn_now(struct spawn_request *request) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return -errno;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int code = errno;
        close(report[0]);
        close(report[1]);
        return -code;
    }
    if (pid == 0) become_subject(request, parent, report[1]);
    close(report[1]);
    int code = 0;
    ssize_t got;
    do { got = read(report[0], &code, sizeof code); } while (got < 0 && errno == EINTR);
    close(report[0]);
    if (got == (ssize_t)sizeof code) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        return -code;
    }
    return pid;
}

/// The thread every subject is forked from: the parent-death signal follows the thread that
/// forked, so it is one that lives as long as the process.
static void *spawner(void *unused) {
    (void)unused;
    pthread_mutex_lock(&spawner_lock);
    for (;;) {
        while (pending_request == NULL) pthread_cond_wait(&spawner_wake, &spawner_lock);
        struct spawn_request *request = pending_request;
        pending_request = NULL;
        pthread_mutex_unlock(&spawner_lock);
        pid_t result = spawn_now(request);
        pthread_mutex_lock(&spawner_lock);
        request->result = result;
        request->done = 1;
        pthread_cond_broadcast(&spawner_wake);
    }
    return NULL;
}

static void start_spawner(void) {
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    spawner_started = pthread_create(&thread, &attributes, spawner, NULL) == 0;
    pthread_attr_destroy(&attributes);
}

pid_t spawn_bound_to_process(const char *path, char *const argv[], char *const envp[], const char *directory,
                             int stdin_fd, int stdout_fd, int stderr_fd) {
    pthread_once(&spawner_once, start_spawner);
    if (!spawner_started) return -EAGAIN;
    struct spawn_request request = {path, argv, envp, directory, stdin_fd, stdout_fd, stderr_fd, 0, 0};
    pthread_mutex_lock(&spawner_lock);
    while (pending_request != NULL) pthread_cond_wait(&spawner_wake, &spawner_lock);
    pending_request = &request;
    pthread_cond_broadcast(&spawner_wake);
    while (!request.done) pthread_cond_wait(&spawner_wake, &spawner_lock);
    pthread_mutex_unlock(&spawner_lock);
    return request.result;
}
#endif

void flush_standard_output(void) {
    fflush(stdout);
}
