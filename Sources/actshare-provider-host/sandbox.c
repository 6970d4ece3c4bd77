/* The sandbox (sandbox.h): Landlock, seccomp, no new privileges and resource limits. */
#include "sandbox.h"

#include "containment.h"
#include "supervisor.h"
#include "syscall_filter.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

/* ---- Landlock, declared here: Debian 12's kernel headers predate its network rules ---- */

struct ruleset_attr {
    uint64_t handled_access_fs, handled_access_net, scoped;
};
struct path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

enum {
    LL_RULE_PATH_BENEATH = 1,
    LL_CREATE_RULESET_VERSION = 1,
};
enum {
    FS_EXECUTE = 1ull << 0, FS_WRITE_FILE = 1ull << 1, FS_READ_FILE = 1ull << 2, FS_READ_DIR = 1ull << 3,
    FS_REMOVE_DIR = 1ull << 4, FS_REMOVE_FILE = 1ull << 5, FS_MAKE_CHAR = 1ull << 6, FS_MAKE_DIR = 1ull << 7,
    FS_MAKE_REG = 1ull << 8, FS_MAKE_SOCK = 1ull << 9, FS_MAKE_FIFO = 1ull << 10, FS_MAKE_BLOCK = 1ull << 11,
    FS_MAKE_SYM = 1ull << 12, FS_REFER = 1ull << 13, FS_TRUNCATE = 1ull << 14,
    NET_BIND_TCP = 1ull << 0, NET_CONNECT_TCP = 1ull << 1,
    SCOPE_ABSTRACT_UNIX = 1ull << 0, SCOPE_SIGNAL = 1ull << 1,
};
/* The rights that may be granted on a file rather than a directory. */
#define FS_FILE_RIGHTS (FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE)

/* ---- The policy, kept to judge refusals ------------------------------------------- */

/* As many as a frame holds (each takes at least 6 bytes of it): items are granted one
 * rule each, unless actshare grants their whole folder (when every entry is shared). */
static struct rule {
    char *path;
    size_t length;
    unsigned rights;
} *rules;
static size_t rule_count;
static int active;

int sandbox_active(void) { return active; }

int sandbox_grants(const char *path, unsigned rights) {
    char absolute[4096];
    if (path[0] != '/') {
        if (!getcwd(absolute, sizeof absolute - 2)) return 0;
        size_t used = strlen(absolute);
        snprintf(absolute + used, sizeof absolute - used, "/%s", path);
        path = absolute;
    }
    for (size_t i = 0; i < rule_count; i++) {
        const struct rule *rule = &rules[i];
        if ((rule->rights & rights) != rights) continue;
        if (strncmp(path, rule->path, rule->length) == 0
            && (path[rule->length] == '\0' || path[rule->length] == '/' || rule->path[rule->length - 1] == '/')) {
            return 1;
        }
    }
    return 0;
}

/* ---- Notes of refusals: a fixed ring written from anywhere, a signal handler too ---- */

#define MAX_NOTES 16
static struct note {
    atomic_int state; /* 0 free, 1 being written, 2 ready */
    unsigned what;
    char subject[512];
} notes[MAX_NOTES];

void sandbox_note(unsigned what, const char *subject) {
    for (int i = 0; i < MAX_NOTES; i++) {
        int expected = 0;
        if (!atomic_compare_exchange_strong(&notes[i].state, &expected, 1)) continue;
        notes[i].what = what;
        size_t n = 0;
        for (; subject && subject[n] && n < sizeof notes[i].subject - 1; n++) notes[i].subject[n] = subject[n];
        notes[i].subject[n] = '\0';
        atomic_store(&notes[i].state, 2);
        return;
    }
}

void sandbox_take_notes(void (*send)(unsigned what, const char *subject)) {
    for (int i = 0; i < MAX_NOTES; i++) {
        if (atomic_load(&notes[i].state) != 2) continue;
        /* The same refusal noted twice (a provider retrying) is said once. */
        int repeated = 0;
        for (int j = 0; j < i; j++) {
            if (atomic_load(&notes[j].state) == 2 && notes[j].what == notes[i].what
                && strcmp(notes[j].subject, notes[i].subject) == 0) repeated = 1;
        }
        if (!repeated) send(notes[i].what, notes[i].subject);
    }
    for (int i = 0; i < MAX_NOTES; i++) {
        int ready = 2;
        atomic_compare_exchange_strong(&notes[i].state, &ready, 0);
    }
}

/* ---- seccomp ------------------------------------------------------------------------ */

/* Where a trapped call's registers are. */
#if defined(__x86_64__)
#define SYSCALL_RESULT(context) ((context)->uc_mcontext.gregs[REG_RAX])
#define SYSCALL_ARG0(context) ((context)->uc_mcontext.gregs[REG_RDI])
#define SYSCALL_ARG1(context) ((context)->uc_mcontext.gregs[REG_RSI])
#elif defined(__aarch64__)
#define SYSCALL_RESULT(context) ((context)->uc_mcontext.regs[0])
#define SYSCALL_ARG0(context) ((context)->uc_mcontext.regs[0])
#define SYSCALL_ARG1(context) ((context)->uc_mcontext.regs[1])
#endif

#if SYSCALL_FILTER_CAN_TRAP
/* A trapped call: note it, and make it fail as if the kernel had refused it. */
static void on_sigsys(int signal_number, siginfo_t *info, void *context_pointer) {
    (void)signal_number;
    ucontext_t *context = context_pointer;
    long number = info->si_syscall;
    int error = EPERM;
    if (number == SYS_execve || number == SYS_execveat) {
        const char *path = (const char *)SYSCALL_ARG0(context);
        if (number == SYS_execveat) path = (const char *)SYSCALL_ARG1(context);
        sandbox_note(ASP_REFUSED_EXEC, path);
        error = EACCES;
    } else if (number == SYS_socket || number == SYS_socketpair) {
        char family[16];
        int value = (int)SYSCALL_ARG0(context), n = 0;
        char digits[12];
        do { digits[n++] = (char)('0' + value % 10); value /= 10; } while (value > 0 && n < 11);
        for (int i = 0; i < n; i++) family[i] = digits[n - 1 - i];
        family[n] = '\0';
        sandbox_note(ASP_REFUSED_SOCKET, family);
        error = EACCES;
    } else if (number == SYS_clone || number == SYS_clone3
#ifdef SYS_fork
               || number == SYS_fork || number == SYS_vfork
#endif
    ) {
        sandbox_note(ASP_REFUSED_PROCESS, "");
        /* clone3 is refused as unknown so that glibc falls back to clone for threads. */
        if (number == SYS_clone3) error = ENOSYS;
    } else {
        sandbox_note(ASP_REFUSED_CALL, syscall_filter_name(number));
    }
    SYSCALL_RESULT(context) = -error;
}
#endif

/* Installs the filter; with `unix_sockets`, connect() is handed to the guard, and the
 * filter's listener is returned (else 0), or -1 with errno. */
static int install_seccomp(int network, int exec, int unix_sockets, int shared_memory) {
    struct sock_filter program[SYSCALL_FILTER_MAX_LENGTH];
    unsigned permissions = (network ? SYSCALL_FILTER_NETWORK : 0) | (exec ? SYSCALL_FILTER_EXEC : 0)
        | (unix_sockets ? SYSCALL_FILTER_UNIX_SOCKETS : 0) | (shared_memory ? SYSCALL_FILTER_SHARED_MEMORY : 0);
    size_t length = syscall_filter_build(permissions, program);
#if SYSCALL_FILTER_CAN_TRAP
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigsys;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSYS, &action, NULL);
#endif
    struct sock_fprog filter = {.len = (unsigned short)length, .filter = program};
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, unix_sockets ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0, &filter);
}

void sandbox_confine_guard(void) {
    struct sock_filter program[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYSCALL_FILTER_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_execve, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_execveat, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    };
    struct sock_fprog filter = {.len = sizeof program / sizeof *program, .filter = program};
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &filter);
}

/* ---- Landlock ----------------------------------------------------------------------- */

static uint64_t landlock_rights(unsigned rights, uint64_t handled) {
    uint64_t access = 0;
    if (rights & ASP_RIGHT_READ) access |= FS_READ_FILE | FS_READ_DIR;
    if (rights & ASP_RIGHT_WRITE) {
        access |= FS_READ_FILE | FS_READ_DIR | FS_WRITE_FILE | FS_REMOVE_DIR | FS_REMOVE_FILE | FS_MAKE_DIR
            | FS_MAKE_REG | FS_MAKE_SYM | FS_MAKE_SOCK | FS_MAKE_FIFO | FS_REFER | FS_TRUNCATE;
    }
    if (rights & ASP_RIGHT_EXEC) access |= FS_EXECUTE;
    return access & handled;
}

/* Returns the ABI enforced (0: none), or -1 with errno. */
static int install_landlock(int network, char *error, size_t error_size) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
    if (abi < 1) return 0;
    struct ruleset_attr attributes = {0};
    size_t attributes_size = sizeof attributes.handled_access_fs;
    attributes.handled_access_fs = (FS_MAKE_SYM << 1) - 1; /* ABI 1: bits 0-12 */
    if (abi >= 2) attributes.handled_access_fs |= FS_REFER;
    if (abi >= 3) attributes.handled_access_fs |= FS_TRUNCATE;
    if (abi >= 4 && !network) {
        attributes.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP;
        attributes_size = 2 * sizeof(uint64_t);
    }
    if (abi >= 6) {
        /* Signals only to its own processes: not to actshare, not to the user's others;
         * and no abstract Unix socket outside the sandbox (the guard connects the ones
         * allowed, from outside). */
        attributes.scoped = SCOPE_SIGNAL | SCOPE_ABSTRACT_UNIX;
        attributes_size = sizeof attributes;
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, attributes_size, 0);
    if (ruleset < 0) {
        snprintf(error, error_size, "landlock_create_ruleset: %s", strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < rule_count; i++) {
        int fd;
        if (rules[i].rights & ASP_RIGHT_NO_LINKS) {
            struct open_how how = {.flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS};
            fd = (int)syscall(SYS_openat2, AT_FDCWD, rules[i].path, &how, sizeof how);
        } else {
            fd = open(rules[i].path, O_PATH | O_CLOEXEC);
        }
        if (fd < 0) continue; /* a path that does not exist (or leads through a link) grants nothing */
        struct stat status;
        uint64_t access = landlock_rights(rules[i].rights, attributes.handled_access_fs);
        if (fstat(fd, &status) == 0 && !S_ISDIR(status.st_mode)) access &= FS_FILE_RIGHTS;
        struct path_beneath_attr beneath = {.allowed_access = access, .parent_fd = fd};
        long added = access ? syscall(SYS_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &beneath, 0) : 0;
        int saved = errno;
        close(fd);
        if (added != 0) {
            snprintf(error, error_size, "landlock_add_rule(%s): %s", rules[i].path, strerror(saved));
            close(ruleset);
            return -1;
        }
    }
    long restricted = syscall(SYS_landlock_restrict_self, ruleset, 0);
    int saved = errno;
    close(ruleset);
    if (restricted != 0) {
        snprintf(error, error_size, "landlock_restrict_self: %s", strerror(saved));
        return -1;
    }
    return (int)abi;
}

/* ---- The private TMPDIR: a file system of its own ---------------------------------- */

static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t written = write(fd, text, strlen(text));
    close(fd);
    return written == (ssize_t)strlen(text) ? 0 : -1;
}

/* Makes the private directory a tmpfs of `size` bytes, seen by this process and its
 * children only: a user namespace (the user mapped to itself) with a mount namespace,
 * then every capability of that namespace dropped. 1 if in force; 0 where user
 * namespaces are not allowed (it is said to actshare, which says so with --explain). */
static int cap_temporary(uint64_t size) {
    const char *directory = getenv("TMPDIR");
    if (!size || !directory || directory[0] != '/' || !strstr(directory, "/actshare-provider-")) return 0;
    uid_t uid = getuid();
    gid_t gid = getgid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return 0;
    char map[64], options[128];
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
    int mapped = write_file("/proc/self/uid_map", map) == 0 && write_file("/proc/self/setgroups", "deny") == 0;
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
    mapped = mapped && write_file("/proc/self/gid_map", map) == 0;
    snprintf(options, sizeof options, "size=%llu,mode=0700,uid=%u,gid=%u", (unsigned long long)size, (unsigned)uid, (unsigned)gid);
    int mounted = mapped && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0
        && mount("actshare-tmp", directory, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, options) == 0;
    /* The namespace's capabilities go, whatever happened: the provider gets none. */
    struct { uint32_t version; int pid; } header = {0x20080522 /* _LINUX_CAPABILITY_VERSION_3 */, 0};
    struct { uint32_t effective, permitted, inheritable; } none[2] = {{0, 0, 0}, {0, 0, 0}};
    syscall(SYS_capset, &header, none);
    return mounted;
}

/* ---- Limits ------------------------------------------------------------------------- */

static void lower(int resource, uint64_t value) {
    if (value == 0) return;
    struct rlimit current;
    if (getrlimit(resource, &current) != 0) return;
    rlim_t limit = (rlim_t)value;
    if (current.rlim_max != RLIM_INFINITY && current.rlim_max < limit) limit = current.rlim_max;
    struct rlimit lowered = {limit, limit};
    setrlimit(resource, &lowered);
}

/* ---- SANDBOX ------------------------------------------------------------------------ */

int sandbox_apply(asp_buffer *payload, int unguarded, uint32_t *abi, unsigned *capped, char *error, size_t error_size) {
    unsigned flags;
    uint32_t count, open_files, processes;
    uint64_t memory, file_size, temporary_files;
    if (asp_get_u8(payload, &flags) != 0 || asp_get_u32(payload, &count) != 0 || count > payload->length / 6
        || !(rules = calloc(count ? count : 1, sizeof *rules))) {
        snprintf(error, error_size, "malformed SANDBOX frame");
        return ASP_ERROR_MALFORMED;
    }
    for (uint32_t i = 0; i < count; i++) {
        unsigned rights;
        char *path = NULL;
        size_t length = 0;
        if (asp_get_u8(payload, &rights) != 0 || asp_get_bytes(payload, &path, &length) != 0 || length == 0 || path[0] != '/') {
            free(path);
            snprintf(error, error_size, "malformed SANDBOX frame");
            return ASP_ERROR_MALFORMED;
        }
        rules[rule_count++] = (struct rule){path, length, rights};
    }
    uint32_t socket_count;
    if (asp_get_u64(payload, &memory) != 0 || asp_get_u64(payload, &file_size) != 0
        || asp_get_u32(payload, &open_files) != 0 || asp_get_u32(payload, &processes) != 0
        || asp_get_u64(payload, &temporary_files) != 0 || asp_get_u32(payload, &socket_count) != 0 || socket_count > SUPERVISOR_MAX_ADDRESSES) {
        snprintf(error, error_size, "malformed SANDBOX frame");
        return ASP_ERROR_MALFORMED;
    }
    supervisor_address sockets[SUPERVISOR_MAX_ADDRESSES];
    for (uint32_t i = 0; i < socket_count; i++) {
        unsigned abstract;
        char *name = NULL;
        size_t length = 0;
        if (asp_get_u8(payload, &abstract) != 0 || abstract > 1 || asp_get_bytes(payload, &name, &length) != 0 || length == 0
            || length + abstract > SUPERVISOR_MAX_ADDRESS - 1 || (!abstract && name[0] != '/')) {
            free(name);
            snprintf(error, error_size, "malformed SANDBOX frame");
            return ASP_ERROR_MALFORMED;
        }
        /* As sockaddr_un has it: an abstract name after a NUL. */
        sockets[i].bytes[0] = '\0';
        memcpy(sockets[i].bytes + abstract, name, length);
        sockets[i].length = length + abstract;
        free(name);
    }
    int network = (flags & ASP_SANDBOX_NETWORK) != 0, exec = (flags & ASP_SANDBOX_EXEC) != 0;
    int unix_sockets = (flags & ASP_SANDBOX_UNIX) != 0, shared_memory = (flags & ASP_SANDBOX_SHARED_MEMORY) != 0;
    if (unguarded && (exec || unix_sockets || temporary_files || getenv("TMPDIR"))) {
        snprintf(error, error_size, "started without a guard (--threads-only), it cannot contain processes, connect sockets or remove a private folder");
        return ASP_ERROR_SANDBOX;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        snprintf(error, error_size, "PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
        return ASP_ERROR_SANDBOX;
    }
    /* Before Landlock: its rule for TMPDIR must name the new file system. */
    *capped = cap_temporary(temporary_files) ? ASP_SANDBOX_CAPPED_TEMPORARY : 0;
    if (CONTAINMENT_LIMITS_ADDRESS_SPACE) lower(RLIMIT_AS, memory);
    lower(RLIMIT_FSIZE, file_size);
    lower(RLIMIT_NOFILE, open_files);
    if (processes) containment_limit_processes(processes);
    /* A file grown past its limit fails the write (EFBIG) rather than killing the provider. */
    signal(SIGXFSZ, SIG_IGN);
    int enforced = install_landlock(network, error, error_size);
    if (enforced < 0) return ASP_ERROR_SANDBOX;
    if (enforced == 0 && (flags & ASP_SANDBOX_REQUIRED)) {
        snprintf(error, error_size, "this kernel has no Landlock");
        return ASP_ERROR_NO_LANDLOCK;
    }
    int listener = install_seccomp(network, exec, unix_sockets, shared_memory);
    if (listener < 0) {
        snprintf(error, error_size, "seccomp: %s", strerror(errno));
        containment_close_channel();
        return ASP_ERROR_SANDBOX;
    }
    if (unix_sockets) {
        /* Without the guard, every connect would fail: say so now rather than then. */
        int handed = containment_channel() >= 0 ? supervisor_hand_over(containment_channel(), listener, sockets, socket_count, network) : -1;
        int saved = errno;
        close(listener);
        containment_close_channel();
        if (handed != 0) {
            snprintf(error, error_size, "cannot hand the Unix-socket rule to the guard: %s", strerror(saved));
            return ASP_ERROR_SANDBOX;
        }
    }
    containment_close_channel();
    active = 1;
    *abi = (uint32_t)enforced;
    return 0;
}
