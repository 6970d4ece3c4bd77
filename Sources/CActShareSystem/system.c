#include "CActShareSystem.h"

#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;
/* Declared here: defining _GNU_SOURCE in a shim broke module builds (PITFALLS.md). */
extern int pipe2(int fds[2], int flags);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int lowest);
extern int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

static volatile int32_t cancel_requested = 0;

char **cactshare_environ(void) { return environ; }

void cactshare_reuse_large_buffers(void) {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
}

void cactshare_release_free_memory(void) { malloc_trim(0); }

int cactshare_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int cactshare_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

volatile int32_t *cactshare_cancel_flag(void) { return &cancel_requested; }

static void on_cancel_signal(int signal_number) {
    (void)signal_number;
    cancel_requested = 1;
}

void cactshare_catch_cancel_signals(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_cancel_signal;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    /* A parent may have started us with these blocked; a handler needs them delivered. */
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    sigprocmask(SIG_UNBLOCK, &signals, NULL);
}

int cactshare_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

int cactshare_renameat_noreplace(int from_directory, const char *from, int to_directory, const char *to) {
    return renameat2(from_directory, from, to_directory, to, RENAME_NOREPLACE);
}

int cactshare_landlock_abi(void) {
#ifdef SYS_landlock_create_ruleset
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, 1 /* LANDLOCK_CREATE_RULESET_VERSION */);
    return abi > 0 ? (int)abi : 0;
#else
    return 0;
#endif
}
