/*
 * The guard's side of the Unix-socket rule (docs/SECURITY.md, Unix sockets).
 *
 * Landlock does not govern connect() on a path socket, so a file-system sandbox alone
 * lets a provider talk to the display server, the session bus or actshare's own daemon.
 * A provider that declares neither `display` nor `dbus` cannot open a Unix socket at all
 * (its seccomp filter refuses socket(AF_UNIX)). One that does may open Unix stream
 * sockets, but each connect() it makes is stopped by its filter and handed to the guard
 * (SECCOMP_RET_USER_NOTIF). The guard runs no provider code: it copies the address out
 * of the caller's memory, and only if it is one the policy lists (this session's display,
 * the session bus) does it connect the caller's socket itself — a duplicate taken with
 * pidfd_getfd — to the address it checked, so the caller cannot change the address in
 * between. Anything else fails with EACCES. Linux 5.9 and later (Debian 12's 6.1 too).
 */
#ifndef ACTSHARE_PROVIDER_HOST_SUPERVISOR_H
#define ACTSHARE_PROVIDER_HOST_SUPERVISOR_H

#include <stddef.h>

/* The most addresses a policy may list, and the longest (a sockaddr_un's sun_path). */
#define SUPERVISOR_MAX_ADDRESSES 16
#define SUPERVISOR_MAX_ADDRESS 108

/* An address a sandboxed provider may connect to: a path (starting with '/'), or an
 * abstract name (a NUL, then the name's bytes). */
typedef struct supervisor_address {
    size_t length;
    char bytes[SUPERVISOR_MAX_ADDRESS];
} supervisor_address;

/* In the guard: starts the thread that waits for the worker's listener on `channel` and
 * answers its connects until the guard ends. A worker that sends nothing (a provider
 * without Unix sockets) ends the thread. */
void supervisor_start(int channel);

/* In the worker, once its filter is in force: gives `listener`, the Unix addresses it may
 * connect to, and whether it has the network (its other connects are then made as asked)
 * to the guard over `channel`. Returns 0, or -1 with errno. The caller closes both
 * afterwards: the provider must hold neither. */
int supervisor_hand_over(int channel, int listener, const supervisor_address *addresses, size_t count, int network);

#endif
