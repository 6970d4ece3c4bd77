/*
 * What keeps a provider's processes and memory within bounds (docs/SECURITY.md).
 *
 * The helper is a child subreaper: whatever a provider forks, daemonises or moves to a
 * session of its own stays a descendant of the helper, and is killed when the hook call
 * that made it ends, when the provider calls exit(), and when actshare asks the helper
 * to stop (SIGTERM). Everything here uses system calls only, so the SIGTERM handler may
 * run it whatever state the provider left the process in.
 */
#ifndef ACTSHARE_PROVIDER_HOST_CONTAINMENT_H
#define ACTSHARE_PROVIDER_HOST_CONTAINMENT_H

/* The address space a helper may map (the provider's heap, libraries and stacks). */
#define CONTAINMENT_MEMORY_LIMIT (4ull << 30)
/* Processes the user may start beyond those already running when the helper starts. */
#define CONTAINMENT_EXTRA_PROCESSES 64

/* Becomes a subreaper, sets the limits above, and kills descendants at exit and on SIGTERM. */
void containment_start(void);

/* Kills every descendant and reaps it; returns how many were killed. */
int containment_kill_descendants(void);

#endif
