/* cactshare_spawn (CActShareSystem.h): a helper started with or without waiting for its
 * exec.
 *
 * posix_spawn starts the child with CLONE_VM | CLONE_VFORK: the parent sleeps until the
 * child has exec'd (0.2 to 0.7 ms here). For one helper that is the fastest start: the
 * child runs at once where the parent ran. When actshare starts two or more together, the
 * second need not wait for the first's exec (docs/PACKAGING.md, "Taken"): then the
 * child is made with CLONE_VM alone and runs beside the parent, on its own stack, until it
 * execs. Sharing the parent's memory while the parent runs constrains what it may do:
 *
 * - it calls no libc function: its system calls are made directly (raw_syscall), so it
 *   never writes errno (the parent thread's, as the child shares its TLS) nor takes a lock;
 * - it reads only its own copy of the path, arguments and environment, kept in the
 *   `cactshare_spawned` that the parent frees once the child is reaped;
 * - it starts with every signal blocked (blocked by the parent around clone) and sets each
 *   handled signal back to its default before unblocking: no handler of the parent's runs
 *   in it.
 *
 * Where this file has no raw system calls for the processor, it waits, as posix_spawn does;
 * so it does under Valgrind (under_valgrind). */
#include "CActShareSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Declared here: defining _GNU_SOURCE in a shim broke module builds (PITFALLS.md). */
extern int clone(int (*function)(void *), void *stack, int flags, void *argument, ...);
#ifndef CLONE_VM
#define CLONE_VM 0x00000100
#endif
#ifndef F_DUPFD_CLOEXEC
#define F_DUPFD_CLOEXEC 1030
#endif

/* The child's stack: its one function's frame and the kernel's signal structures. */
enum { child_stack_size = 32 * 1024, highest_signal = 64 };

struct cactshare_spawned {
    /* Written by the child when its exec fails, read by the parent once it is reaped. */
    int exec_error;
    int count;
    int descriptors[CACTSHARE_SPAWN_MAX_DESCRIPTORS];
    char *path;
    char **argv;
    char **envp;
    /* One allocation for the strings and pointer arrays above. */
    char *strings;
    unsigned char *stack;
};

#if defined(__x86_64__) || defined(__aarch64__)
#define HAS_CONCURRENT_START 1

#if defined(__x86_64__)
static inline long raw_syscall(long number, long a, long b, long c, long d) {
    long result;
    register long r10 __asm__("r10") = d;
    __asm__ volatile("syscall" : "=a"(result) : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
    return result;
}
#else
static inline long raw_syscall(long number, long a, long b, long c, long d) {
    register long x8 __asm__("x8") = number;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory", "cc");
    return x0;
}
#endif

/* The kernel's struct sigaction (not glibc's): handler, flags, restorer, mask. */
struct kernel_sigaction {
    void (*handler)(int);
    unsigned long flags;
    void (*restorer)(void);
    unsigned long mask;
};

static _Noreturn void child_fail(struct cactshare_spawned *spawned, long error) {
    __atomic_store_n(&spawned->exec_error, (int)-error, __ATOMIC_RELEASE);
    for (;;) raw_syscall(SYS_exit, 127, 0, 0, 0);
}

/* The child, on its own stack in the parent's memory until execve: see the top of the file. */
__attribute__((no_sanitize("address", "undefined"), no_stack_protector))
static int child_main(void *argument) {
    struct cactshare_spawned *spawned = argument;
    /* Signals: a handler of the parent's is reset (it would run on shared memory), and the
     * signals actshare itself handles or ignores (INT, TERM, USR1, PIPE) start at their
     * default; an ignored one otherwise stays ignored, as posix_spawn leaves it. */
    for (long signal = 1; signal <= highest_signal; signal++) {
        if (signal == SIGKILL || signal == SIGSTOP) continue;
        struct kernel_sigaction action = {0};
        if (raw_syscall(SYS_rt_sigaction, signal, 0, (long)&action, 8) != 0) continue;
        int forced = signal == SIGINT || signal == SIGTERM || signal == SIGUSR1 || signal == SIGPIPE;
        if (!forced && (action.handler == SIG_DFL || action.handler == SIG_IGN)) continue;
        struct kernel_sigaction standard = {0};
        standard.handler = SIG_DFL;
        raw_syscall(SYS_rt_sigaction, signal, (long)&standard, 0, 8);
    }
    /* A process group of its own: Ctrl-C on the terminal reaches actshare, not the helper. */
    long result = raw_syscall(SYS_setpgid, 0, 0, 0, 0);
    if (result < 0) child_fail(spawned, result);
    /* Descriptors: every source moved above the targets first, so that none is overwritten
     * before it is copied; then each onto its place, /dev/null onto 0, and the rest closed. */
    int moved[CACTSHARE_SPAWN_MAX_DESCRIPTORS];
    for (int index = 0; index < spawned->count; index++) {
        result = raw_syscall(SYS_fcntl, spawned->descriptors[index], F_DUPFD_CLOEXEC, spawned->count + 1, 0);
        if (result < 0) child_fail(spawned, result);
        moved[index] = (int)result;
    }
    for (int index = 0; index < spawned->count; index++) {
        result = raw_syscall(SYS_dup3, moved[index], index + 1, 0, 0);
        if (result < 0) child_fail(spawned, result);
    }
    long null = raw_syscall(SYS_openat, AT_FDCWD, (long)"/dev/null", O_RDONLY | O_CLOEXEC, 0);
    if (null < 0) child_fail(spawned, null);
    result = null == 0 ? raw_syscall(SYS_fcntl, 0, F_SETFD, 0, 0) : raw_syscall(SYS_dup3, null, 0, 0, 0);
    if (result < 0) child_fail(spawned, result);
    result = raw_syscall(SYS_close_range, spawned->count + 1, ~0U, 0, 0);
    if (result < 0) child_fail(spawned, result);
    unsigned long none = 0;
    raw_syscall(SYS_rt_sigprocmask, SIG_SETMASK, (long)&none, 0, 8);
    result = raw_syscall(SYS_execve, (long)spawned->path, (long)spawned->argv, (long)spawned->envp, 0);
    child_fail(spawned, result);
}

static pid_t start_concurrently(struct cactshare_spawned *spawned, int *error) {
    /* Every signal blocked, the C library's own too (hence not sigprocmask, which keeps
     * those open): the child inherits this mask and unblocks only after its reset. */
    unsigned long all = ~0UL, before = 0;
    raw_syscall(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, (long)&before, 8);
    pid_t pid = clone(child_main, spawned->stack + child_stack_size, CLONE_VM | SIGCHLD, spawned);
    *error = pid < 0 ? errno : 0;
    raw_syscall(SYS_rt_sigprocmask, SIG_SETMASK, (long)&before, 0, 8);
    return pid;
}

#endif

/* The same start through posix_spawn, which returns once the child has exec'd. Its file
 * actions run in order, so a source that is also a target (a descriptor 3 that must become
 * 5) is first copied above the targets here, and the copy closed after. */
static pid_t start_waiting(struct cactshare_spawned *spawned, int *error) {
    int sources[CACTSHARE_SPAWN_MAX_DESCRIPTORS], copies[CACTSHARE_SPAWN_MAX_DESCRIPTORS];
    for (int index = 0; index < spawned->count; index++) {
        int source = spawned->descriptors[index];
        copies[index] = source <= spawned->count ? fcntl(source, F_DUPFD_CLOEXEC, spawned->count + 1) : -1;
        sources[index] = copies[index] >= 0 ? copies[index] : source;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    for (int index = 0; index < spawned->count; index++) {
        posix_spawn_file_actions_adddup2(&actions, sources[index], index + 1);
    }
    cactshare_spawn_close_from(&actions, spawned->count + 1);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGUSR1);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = 0;
    *error = posix_spawn(&pid, spawned->path, &actions, &attributes, spawned->argv, spawned->envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    for (int index = 0; index < spawned->count; index++) {
        if (copies[index] >= 0) close(copies[index]);
    }
    return *error == 0 ? pid : -1;
}

/* Whether Valgrind runs actshare: it runs no process that shares the parent's memory
 * without being one of its threads, and stops the whole program at such a clone
 * ("Unsupported clone() flags"). Its preload library is in the LD_PRELOAD of every
 * program it runs. */
static int under_valgrind(void) {
    const char *preload = getenv("LD_PRELOAD");
    return preload && strstr(preload, "/vgpreload_");
}

/* The bytes `list` (NULL-terminated) needs as copied by copy_list. */
static size_t list_size(char *const list[]) {
    size_t size = 0;
    for (size_t index = 0; list[index]; index++) size += strlen(list[index]) + 1;
    return size;
}

static char *copy_list(char *const list[], char **pointers, char *strings) {
    size_t index = 0;
    for (; list[index]; index++) {
        size_t length = strlen(list[index]) + 1;
        memcpy(strings, list[index], length);
        pointers[index] = strings;
        strings += length;
    }
    pointers[index] = NULL;
    return strings;
}

static size_t list_count(char *const list[]) {
    size_t count = 0;
    while (list[count]) count++;
    return count;
}

int cactshare_spawn(const char *path, char *const argv[], char *const envp[], const int *descriptors, int count,
                    int concurrently, pid_t *pid, cactshare_spawned **spawned_out) {
    if (count < 0 || count > CACTSHARE_SPAWN_MAX_DESCRIPTORS) return EINVAL;
    if (concurrently && under_valgrind()) concurrently = 0;
    /* What posix_spawn would report at once; a failure after this comes as exit 127. */
    if (access(path, X_OK) != 0) return errno;
    struct cactshare_spawned *spawned = calloc(1, sizeof *spawned);
    if (!spawned) return ENOMEM;
    size_t arguments = list_count(argv), variables = list_count(envp);
    size_t pointers = (arguments + 1 + variables + 1) * sizeof(char *);
    size_t text = strlen(path) + 1 + list_size(argv) + list_size(envp);
    spawned->strings = malloc(pointers + text);
#ifdef HAS_CONCURRENT_START
    if (concurrently) spawned->stack = aligned_alloc(64, child_stack_size);
    if (!spawned->strings || (concurrently && !spawned->stack)) {
#else
    if (!spawned->strings) {
#endif
        cactshare_spawned_free(spawned);
        return ENOMEM;
    }
    spawned->argv = (char **)spawned->strings;
    spawned->envp = spawned->argv + arguments + 1;
    char *strings = spawned->strings + pointers;
    spawned->path = strings;
    memcpy(strings, path, strlen(path) + 1);
    strings += strlen(path) + 1;
    strings = copy_list(argv, spawned->argv, strings);
    copy_list(envp, spawned->envp, strings);
    spawned->count = count;
    memcpy(spawned->descriptors, descriptors, (size_t)count * sizeof(int));
    int error = 0;
#ifdef HAS_CONCURRENT_START
    pid_t started = concurrently ? start_concurrently(spawned, &error) : start_waiting(spawned, &error);
#else
    (void)concurrently;
    pid_t started = start_waiting(spawned, &error);
#endif
    if (started < 0) {
        cactshare_spawned_free(spawned);
        return error;
    }
    *pid = started;
    *spawned_out = spawned;
    return 0;
}

int cactshare_spawned_exec_error(const cactshare_spawned *spawned) {
    return __atomic_load_n(&spawned->exec_error, __ATOMIC_ACQUIRE);
}

void cactshare_spawned_free(cactshare_spawned *spawned) {
    if (!spawned) return;
    free(spawned->strings);
    free(spawned->stack);
    free(spawned);
}
