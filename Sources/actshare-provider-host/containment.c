/* See containment.h. */
#include "containment.h"

#include "sandbox.h"
#include "supervisor.h"

#include <CActShareSystem.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Reads the small file at `path` into `buffer` (NUL-terminated); its length, or -1. */
static ssize_t read_small(const char *path, char *buffer, size_t size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t length = 0;
    while (length + 1 < size) {
        ssize_t count = read(fd, buffer + length, size - 1 - length);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        length += (size_t)count;
    }
    close(fd);
    buffer[length] = '\0';
    return (ssize_t)length;
}

/* Whether processes in a session of their own are spared (containment_start). */
static volatile sig_atomic_t keeping_sessions = 0;

/* SIGKILLs every direct child, as /proc/self/task/TID/children lists them for each of
 * the helper's threads (a provider may fork from a thread). Returns how many. Uses the
 * raw getdents64 system call: readdir may allocate, which a signal handler must not. */
static int kill_children(void) {
    int killed = 0;
    int tasks = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (tasks < 0) return 0;
    char entries[4096];
    for (;;) {
        long count = syscall(SYS_getdents64, tasks, entries, sizeof entries);
        if (count <= 0) break;
        for (long offset = 0; offset < count;) {
            struct { unsigned long long inode; long long next; unsigned short length; unsigned char type; char name[]; } *entry =
                (void *)(entries + offset);
            offset += entry->length;
            if (entry->name[0] < '0' || entry->name[0] > '9') continue;
            char path[64] = "/proc/self/task/";
            size_t prefix = strlen(path);
            size_t name = strnlen(entry->name, 20);
            memcpy(path + prefix, entry->name, name);
            memcpy(path + prefix + name, "/children", 10);
            char list[4096];
            if (read_small(path, list, sizeof list) <= 0) continue;
            for (char *p = list; *p;) {
                while (*p == ' ') p++;
                long pid = 0;
                while (*p >= '0' && *p <= '9') pid = pid * 10 + (*p++ - '0');
                if (pid > 0 && keeping_sessions && getsid((pid_t)pid) == (pid_t)pid) continue;
                if (pid > 0 && kill((pid_t)pid, SIGKILL) == 0) killed++;
                if (*p && *p != ' ') break;
            }
        }
    }
    close(tasks);
    return killed;
}

int containment_kill_descendants(void) {
    /* No child at all (the usual case after a call): then no descendant either, as every
     * orphan below is handed to this subreaper; /proc need not be read. Any thread's
     * children count here, as /proc lists them per thread. */
    siginfo_t any;
    if (waitid(P_ALL, 0, &any, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD) return 0;
    int total = 0;
    /* Killing a child hands its own children to the helper (the subreaper): go on until
     * none is left, within a bound (a fork loop is stopped by its SIGKILL). */
    for (int round = 0; round < 20000; round++) {
        int killed = kill_children();
        int reaped = 0;
        while (waitpid(-1, NULL, WNOHANG) > 0) reaped++;
        if (killed == 0) break;
        total += killed;
        /* A child killed is listed until reaped: give it a moment to die (at most ~1 s). */
        if (reaped == 0) {
            struct timespec pause = {0, 50000};
            nanosleep(&pause, NULL);
        }
    }
    return total;
}

static pid_t worker = -1;
static int channel = -1;

int containment_channel(void) { return channel; }

void containment_close_channel(void) {
    if (channel >= 0) close(channel);
    channel = -1;
}

/* The worker, on SIGTERM (which only the guard sends it): its descendants go with it. */
static void on_terminate(int signal_number) {
    (void)signal_number;
    containment_kill_descendants();
    _exit(0);
}

static void at_exit(void) { containment_kill_descendants(); }

/* The guard passes SIGUSR1 (cancel) on to the worker. */
static void forward(int signal_number) {
    if (worker > 0) kill(worker, signal_number);
}

/* The provider's private temporary directory (its TMPDIR, made by actshare), which the
 * guard removes when the worker is gone, however it ended. */
static char private_directory[4096];
static volatile sig_atomic_t terminating = 0;

/* The guard, on SIGTERM: everything goes, the worker first (the loop below finishes). */
static void guard_terminate(int signal_number) {
    (void)signal_number;
    terminating = 1;
    keeping_sessions = 0;
    if (worker > 0) kill(worker, SIGKILL);
}

/* The guard's life: reap, and when the worker ends, kill what is left and end as it did. */
static void guard(void) {
    for (;;) {
        int status;
        pid_t ended = waitpid(-1, &status, 0);
        if (ended < 0 && errno == EINTR) continue;
        if (ended < 0) _exit(70);
        if (ended != worker) continue;
        containment_kill_descendants();
        if (private_directory[0]) cactshare_remove_tree(private_directory);
        if (terminating) _exit(0);
        if (WIFSIGNALED(status)) {
            int signal_number = WTERMSIG(status);
            signal(signal_number, SIG_DFL);
            sigset_t only;
            sigemptyset(&only);
            sigaddset(&only, signal_number);
            sigprocmask(SIG_UNBLOCK, &only, NULL);
            /* No core file of the guard: the worker's crash was said already. */
            struct rlimit none = {0, 0};
            setrlimit(RLIMIT_CORE, &none);
            raise(signal_number);
        }
        _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 70);
    }
}

/* The number of threads the whole system runs now (the 4th field of /proc/loadavg is
 * running/total): RLIMIT_NPROC counts the user's, so this is an upper bound on them. */
static long threads_running(void) {
    char text[128];
    if (read_small("/proc/loadavg", text, sizeof text) <= 0) return -1;
    char *slash = strchr(text, '/');
    return slash ? strtol(slash + 1, NULL, 10) : -1;
}

void containment_limit_processes(unsigned extra) {
    struct rlimit current;
    long running = threads_running();
    if (running > 0 && getrlimit(RLIMIT_NPROC, &current) == 0) {
        rlim_t limit = (rlim_t)running + extra;
        if (current.rlim_max == RLIM_INFINITY || current.rlim_max > limit) {
            struct rlimit processes = {limit, limit};
            setrlimit(RLIMIT_NPROC, &processes);
        }
    }
}

void containment_start(int protocol_in, int protocol_out, int grant, int keep_sessions, int supervise, int guarded) {
    keeping_sessions = keep_sessions != 0;
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    const char *temporary = getenv("TMPDIR");
    if (temporary && temporary[0] == '/' && strstr(temporary, "/actshare-provider-") && strlen(temporary) < sizeof private_directory) {
        strcpy(private_directory, temporary);
    }
    int ends[2] = {-1, -1};
    if (supervise && socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) ends[0] = ends[1] = -1;
    worker = guarded ? fork() : -1;
    if (worker > 0) {
        close(protocol_in);
        close(protocol_out);
        if (grant >= 0) close(grant);
        if (ends[1] >= 0) close(ends[1]);
        if (ends[0] >= 0) {
            sandbox_confine_guard();
            supervisor_start(ends[0]);
        }
        struct sigaction action;
        memset(&action, 0, sizeof action);
        sigfillset(&action.sa_mask);
        action.sa_handler = forward;
        sigaction(SIGUSR1, &action, NULL);
        action.sa_handler = guard_terminate;
        sigaction(SIGTERM, &action, NULL);
        guard();
    }
    /* The worker (or the helper itself, unguarded or if fork failed, with no one to supervise). */
    if (ends[0] >= 0) close(ends[0]);
    channel = worker == 0 ? ends[1] : -1;
    if (worker < 0 && ends[1] >= 0) close(ends[1]);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    struct rlimit memory = {CONTAINMENT_MEMORY_LIMIT, CONTAINMENT_MEMORY_LIMIT};
    struct rlimit current;
    if (CONTAINMENT_LIMITS_ADDRESS_SPACE && getrlimit(RLIMIT_AS, &current) == 0
        && (current.rlim_max == RLIM_INFINITY || current.rlim_max > memory.rlim_max)) {
        setrlimit(RLIMIT_AS, &memory);
    }
    containment_limit_processes(CONTAINMENT_EXTRA_PROCESSES);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_terminate;
    sigfillset(&action.sa_mask);
    sigaction(SIGTERM, &action, NULL);
    atexit(at_exit);
}
