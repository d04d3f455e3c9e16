#ifndef CSPAWNEXTRAS_H
#define CSPAWNEXTRAS_H

#include <sys/types.h>

/// Makes this process the reaper of its descendants' orphans (Linux PR_SET_CHILD_SUBREAPER):
/// a process that leaves its parent's session and outlives it becomes this process's child
/// instead of init's. 0, or an errno. prctl is variadic, which Swift cannot call.
int become_child_subreaper(void);

/// Opens a new TUN device named `name` (IFF_TUN | IFF_NO_PI: each read and write is one
/// whole IP packet), non-blocking and close-on-exec; the device goes when the descriptor is
/// closed. The descriptor, or -1 with errno set. ioctl is variadic, which Swift cannot call.
int tun_open(const char *name);

/// Starts `path` with `argv` and `envp` (NULL-terminated) in `directory`, in a process group of
/// its own, with its standard input `stdin_fd` (-1: /dev/null), output `stdout_fd` and error
/// `stderr_fd`, its signals as a new program's, and no other descriptor of this process. The
/// kernel sends it SIGKILL when this process ends, however it ends (PR_SET_PDEATHSIG, set from
/// a thread that lives as long as the process). Its pid, or -errno.
pid_t spawn_bound_to_process(const char *path, char *const argv[], char *const envp[], const char *directory,
                             int stdin_fd, int stdout_fd, int stderr_fd);

/// Writes out what the C standard output stream (which Swift's `print` uses) holds. Swift 6
/// refuses a reference to the global `stdout`; and `fflush(NULL)` would wait on the lock of a
/// `stdin` another thread is blocked reading.
void flush_standard_output(void);

#endif
