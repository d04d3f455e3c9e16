#ifndef CSPAWNEXTRAS_H
#define CSPAWNEXTRAS_H

#include <spawn.h>

/// Adds a file action that closes every descriptor from `lowest` up in the child, so a spawned
/// program inherits nothing of its parent but what the other actions set up. 0, or an errno
/// (ENOSYS where the C library cannot: glibc before 2.34). Swift's Glibc module hides the
/// GNU extension this calls, so it is wrapped here.
int spawn_file_actions_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// Adds a file action that changes the child's working directory to `path` before it runs
/// its program. 0, or an errno (ENOSYS before glibc 2.29). Hidden by Swift's Glibc module too.
int spawn_file_actions_chdir(posix_spawn_file_actions_t *actions, const char *path);

/// Makes this process the reaper of its descendants' orphans (Linux PR_SET_CHILD_SUBREAPER):
/// a process that leaves its parent's session and outlives it becomes this process's child
/// instead of init's. 0, or an errno. prctl is variadic, which Swift cannot call.
int become_child_subreaper(void);

/// Opens a new TUN device named `name` (IFF_TUN | IFF_NO_PI: each read and write is one
/// whole IP packet), non-blocking and close-on-exec; the device goes when the descriptor is
/// closed. The descriptor, or -1 with errno set. ioctl is variadic, which Swift cannot call.
int tun_open(const char *name);

#endif
