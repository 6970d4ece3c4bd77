/*
 * The provider's system-call filter: the seccomp program sandbox.c installs in the worker
 * (sandbox.h says what it refuses and why).
 *
 * The program judges a call by its number through a balanced search over the numbers it
 * has a rule for, its returns shared, rather than by a list of comparisons, each with its
 * return: when the filter is installed the kernel translates and compiles the program and
 * runs it once for every system call number (to cache the calls it always allows), so
 * the install takes longer the longer the program and the paths through it. The list of
 * 60 rules took 0.14 ms to install; the search, 96 instructions with at most 16 run per
 * call, takes 0.07 ms (docs/PACKAGING.md, "Taken").
 */
#ifndef ACTSHARE_PROVIDER_HOST_SYSCALL_FILTER_H
#define ACTSHARE_PROVIDER_HOST_SYSCALL_FILTER_H

#include <linux/audit.h>
#include <linux/filter.h>
#include <stddef.h>

#if defined(__x86_64__)
#define SYSCALL_FILTER_ARCH AUDIT_ARCH_X86_64
#define SYSCALL_FILTER_CAN_TRAP 1
#elif defined(__aarch64__)
#define SYSCALL_FILTER_ARCH AUDIT_ARCH_AARCH64
#define SYSCALL_FILTER_CAN_TRAP 1
#else
/* Where the helper cannot read a trapped call's registers, a refused call fails with its
 * errno at once and is not named. */
#define SYSCALL_FILTER_CAN_TRAP 0
#endif

/* What the manifest allows, as far as system calls go. */
enum {
    SYSCALL_FILTER_NETWORK = 1 << 0,       /* sockets of any family */
    SYSCALL_FILTER_EXEC = 1 << 1,          /* new processes and programs */
    SYSCALL_FILTER_UNIX_SOCKETS = 1 << 2,  /* stream Unix sockets, each connect() judged by the guard */
    SYSCALL_FILTER_SHARED_MEMORY = 1 << 3, /* memfd_create and System V shared memory */
};

/* The longest program syscall_filter_build writes. */
#define SYSCALL_FILTER_MAX_LENGTH 512

/* Writes the filter for `permissions` (SYSCALL_FILTER_*) into `program`, which holds
 * SYSCALL_FILTER_MAX_LENGTH instructions, and returns its length. A refused call traps
 * (SECCOMP_RET_TRAP) where SYSCALL_FILTER_CAN_TRAP, so the helper names it, else fails
 * with EPERM or EACCES; connect() with Unix sockets goes to the guard
 * (SECCOMP_RET_USER_NOTIF); a call of another architecture kills the process. */
size_t syscall_filter_build(unsigned permissions, struct sock_filter *program);

/* The name of a call refused whatever the permissions (ptrace, mount…), for the user;
 * "a system call" for any other number. */
const char *syscall_filter_name(long number);

#endif
