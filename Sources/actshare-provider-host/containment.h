/*
 * What keeps a provider's processes and memory within bounds (docs/SECURITY.md).
 *
 * The helper splits in two before any provider code loads: a guard, the process actshare
 * started, which runs no provider code, and the worker, its child, which loads the
 * provider and answers the protocol. Both are child subreapers, so whatever a provider
 * forks, daemonises or moves to a session of its own stays their descendant. The worker
 * kills what a hook started when the call ends, and at exit(); the guard kills whatever
 * is left when the worker ends in any way (a crash, _exit, a fork-then-exit), then ends
 * as the worker did; on SIGTERM (actshare stopping it) it kills everything. Killing uses
 * system calls only, so a signal handler may run it whatever state a provider left.
 */
#ifndef ACTSHARE_PROVIDER_HOST_CONTAINMENT_H
#define ACTSHARE_PROVIDER_HOST_CONTAINMENT_H

/* The address space a helper may map (the provider's heap, libraries and stacks). */
#define CONTAINMENT_MEMORY_LIMIT (4ull << 30)

/* Whether the address space is limited at all: not under AddressSanitizer (scripts/sanitize),
 * whose shadow memory alone maps terabytes of it. Every other limit holds there too. */
#if defined(__SANITIZE_ADDRESS__)
#define CONTAINMENT_LIMITS_ADDRESS_SPACE 0
#else
#define CONTAINMENT_LIMITS_ADDRESS_SPACE 1
#endif
/* Processes the user may start beyond those already running when the helper starts. */
#define CONTAINMENT_EXTRA_PROCESSES 64

/* Forks the worker and returns in it, with the limits above set; the guard never returns.
 * Without `guarded`, nothing is forked: the helper is the worker, for a provider that can
 * start no process (its seccomp filter allows threads only; sandbox_apply checks).
 * `protocol_in`, `protocol_out` and `grant` (if not -1) are closed in the guard (only the
 * worker talks, and a grant's connection ends when the worker does). With
 * `keep_sessions` (a provider whose manifest says `background: true`, as actshare tells
 * the helper on its command line), a process the provider put in a session of its own
 * (setsid: a clipboard server) outlives the call and the helper, sandboxed as it was;
 * the rest goes as always, and everything when actshare stops the helper. With `supervise`
 * (a provider that may reach Unix sockets), the guard gets a channel from the worker and
 * answers its connects (supervisor.h), confined itself. */
void containment_start(int protocol_in, int protocol_out, int grant, int keep_sessions, int supervise, int guarded);

/* The worker's end of its channel to the guard, which hands the guard the listener of
 * the Unix-socket rule (supervisor.h); -1 once closed. */
int containment_channel(void);

/* Closes that channel: done before any provider code loads. */
void containment_close_channel(void);

/* Lets the user start at most `extra` processes beyond those running now. */
void containment_limit_processes(unsigned extra);

/* Kills every descendant and reaps it; returns how many were killed. */
int containment_kill_descendants(void);

#endif
