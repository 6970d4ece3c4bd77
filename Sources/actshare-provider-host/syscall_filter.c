/* See syscall_filter.h. */
#include "syscall_filter.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/syscall.h>

/* Calls no provider needs, and their names for the user. */
static const struct {
    int number;
    const char *name;
} forbidden[] = {
    {SYS_ptrace, "ptrace"}, {SYS_process_vm_readv, "process_vm_readv"}, {SYS_process_vm_writev, "process_vm_writev"},
    {SYS_mount, "mount"}, {SYS_umount2, "umount2"}, {SYS_pivot_root, "pivot_root"}, {SYS_chroot, "chroot"},
    {SYS_init_module, "init_module"}, {SYS_finit_module, "finit_module"}, {SYS_delete_module, "delete_module"},
    {SYS_kexec_load, "kexec_load"}, {SYS_kexec_file_load, "kexec_file_load"}, {SYS_reboot, "reboot"},
    {SYS_swapon, "swapon"}, {SYS_swapoff, "swapoff"}, {SYS_bpf, "bpf"}, {SYS_perf_event_open, "perf_event_open"},
    {SYS_userfaultfd, "userfaultfd"}, {SYS_keyctl, "keyctl"}, {SYS_add_key, "add_key"},
    {SYS_request_key, "request_key"}, {SYS_setns, "setns"}, {SYS_unshare, "unshare"},
    {SYS_open_by_handle_at, "open_by_handle_at"}, {SYS_name_to_handle_at, "name_to_handle_at"}, {SYS_acct, "acct"},
    {SYS_settimeofday, "settimeofday"}, {SYS_clock_settime, "clock_settime"}, {SYS_adjtimex, "adjtimex"},
    {SYS_clock_adjtime, "clock_adjtime"}, {SYS_sethostname, "sethostname"}, {SYS_setdomainname, "setdomainname"},
    {SYS_fanotify_init, "fanotify_init"}, {SYS_quotactl, "quotactl"}, {SYS_syslog, "syslog"},
    {SYS_vhangup, "vhangup"}, {SYS_io_uring_setup, "io_uring_setup"}, {SYS_io_uring_enter, "io_uring_enter"},
    {SYS_io_uring_register, "io_uring_register"}, {SYS_fsopen, "fsopen"}, {SYS_fsmount, "fsmount"},
    {SYS_move_mount, "move_mount"}, {SYS_open_tree, "open_tree"}, {SYS_fspick, "fspick"},
    /* Another process's descriptors (actshare's, the user's programs'): the guard's own
     * use of it is outside the filter. */
    {SYS_pidfd_getfd, "pidfd_getfd"},
#ifdef SYS_iopl
    {SYS_iopl, "iopl"}, {SYS_ioperm, "ioperm"},
#endif
};

const char *syscall_filter_name(long number) {
    if (number == SYS_memfd_create) return "memfd_create";
    if (number == SYS_shmget) return "shmget";
    for (size_t i = 0; i < sizeof forbidden / sizeof *forbidden; i++) {
        if (forbidden[i].number == number) return forbidden[i].name;
    }
    return "a system call";
}

#define REFUSE(error) (SYSCALL_FILTER_CAN_TRAP ? SECCOMP_RET_TRAP : (SECCOMP_RET_ERRNO | (error)))
#define NUMBER offsetof(struct seccomp_data, nr)
#define ARG0_LOW offsetof(struct seccomp_data, args[0])
#define ARG1_LOW offsetof(struct seccomp_data, args[1])
/* A socket's type without SOCK_NONBLOCK and SOCK_CLOEXEC. */
#define SOCKET_TYPE_MASK 0xf

/* A call the filter has a rule for, and what the rule does: return `action`, or look
 * at the call's arguments (every path of such a block ends in a return). */
struct rule {
    uint32_t number;
    enum { RETURN, SOCKET, SOCKETPAIR, CLONE } block;
    uint32_t action;
};

struct writer {
    struct sock_filter *program;
    size_t length;
    int overflowed;
};

/* Appends one instruction, and returns where it went. */
static size_t emit(struct writer *w, struct sock_filter instruction) {
    if (w->length == SYSCALL_FILTER_MAX_LENGTH) {
        w->overflowed = 1;
        return w->length - 1;
    }
    w->program[w->length] = instruction;
    return w->length++;
}

#define STATEMENT(code, k) ((struct sock_filter)BPF_STMT(code, k))
#define JUMP(code, k, jt, jf) ((struct sock_filter)BPF_JUMP(code, k, jt, jf))

/* Allows the call if its second argument is a stream socket's type, else refuses it: 5
 * instructions, the allowing return 3 after the first, the refusing one 4. */
static size_t stream_only(struct sock_filter *out) {
    size_t n = 0;
    out[n++] = STATEMENT(BPF_LD | BPF_W | BPF_ABS, ARG1_LOW);
    out[n++] = STATEMENT(BPF_ALU | BPF_AND | BPF_K, SOCKET_TYPE_MASK);
    out[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, SOCK_STREAM, 0, 1);
    out[n++] = STATEMENT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    out[n++] = STATEMENT(BPF_RET | BPF_K, REFUSE(EACCES));
    return n;
}

/* The instructions of a rule's block, the call's number being in the accumulator. */
static size_t block(const struct rule *rule, unsigned permissions, struct sock_filter *out) {
    int network = (permissions & SYSCALL_FILTER_NETWORK) != 0;
    size_t n = 0;
    switch (rule->block) {
    case RETURN:
        out[n++] = STATEMENT(BPF_RET | BPF_K, rule->action);
        break;
    case SOCKET:
        /* A Unix socket only with display or D-Bus, and then only a stream one (a
         * datagram socket could send to any path without connect()); another family only
         * with the network. */
        if (!(permissions & SYSCALL_FILTER_UNIX_SOCKETS)) { /* here, with the network */
            out[n++] = STATEMENT(BPF_LD | BPF_W | BPF_ABS, ARG0_LOW);
            out[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1);
            out[n++] = STATEMENT(BPF_RET | BPF_K, REFUSE(EACCES));
            out[n++] = STATEMENT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
            break;
        }
        out[n++] = STATEMENT(BPF_LD | BPF_W | BPF_ABS, ARG0_LOW);
        /* Another family: to the stream check's allowing return with the network, else
         * to its refusing one. */
        out[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, network ? 3 : 4);
        n += stream_only(out + n);
        break;
    case SOCKETPAIR:
        /* Two connected ends that reach no one, but only of a stream: a datagram end
         * could still send to any path. */
        n += stream_only(out + n);
        break;
    case CLONE:
        /* Without exec: threads only. */
        out[n++] = STATEMENT(BPF_LD | BPF_W | BPF_ABS, ARG0_LOW);
        out[n++] = JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1);
        out[n++] = STATEMENT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        out[n++] = STATEMENT(BPF_RET | BPF_K, REFUSE(EPERM));
        break;
    }
    return n;
}

/* A few rules are compared one by one; more are split in two by number. */
#define LEAF_RULES 8

/* The search over rules[0..count), sorted by number. Every path ends in a return: a rule's
 * block, or SECCOMP_RET_ALLOW for a number without a rule. Short: the kernel's time to
 * take the program grows with its length as well. */
static void search(struct writer *w, const struct rule *rules, size_t count, unsigned permissions) {
    if (count <= LEAF_RULES) {
        /* The returns the leaf's rules share come after its last comparison, each once. */
        size_t to_return[LEAF_RULES];
        uint32_t returns[LEAF_RULES];
        size_t return_count = 0;
        for (size_t i = 0; i < count; i++) {
            if (rules[i].block == RETURN) {
                to_return[i] = emit(w, JUMP(BPF_JMP | BPF_JEQ | BPF_K, rules[i].number, 0, 0));
                continue;
            }
            struct sock_filter instructions[8];
            size_t length = block(&rules[i], permissions, instructions);
            emit(w, JUMP(BPF_JMP | BPF_JEQ | BPF_K, rules[i].number, 0, (uint8_t)length));
            for (size_t j = 0; j < length; j++) emit(w, instructions[j]);
        }
        emit(w, STATEMENT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
        for (size_t i = 0; i < count; i++) {
            if (rules[i].block != RETURN) continue;
            size_t r = 0;
            while (r < return_count && returns[r] != rules[i].action) r++;
            if (r == return_count) {
                returns[return_count++] = rules[i].action;
                emit(w, STATEMENT(BPF_RET | BPF_K, rules[i].action));
            }
            /* The r-th shared return is the (r+1)-th instruction after the RET ALLOW. */
            size_t target = w->length - 1 - (return_count - 1 - r);
            if (target - to_return[i] - 1 > 255) w->overflowed = 1;
            w->program[to_return[i]].jt = (uint8_t)(target - to_return[i] - 1);
        }
        return;
    }
    size_t middle = count / 2;
    /* From rules[middle]'s number up: the upper half, after the lower one. */
    size_t split = emit(w, JUMP(BPF_JMP | BPF_JGE | BPF_K, rules[middle].number, 0, 0));
    search(w, rules, middle, permissions);
    size_t distance = w->length - split - 1;
    /* A jump reaches 255 instructions: a longer lower half makes no program at all (the
     * checker's test sees that before any helper would). */
    if (distance > 255) w->overflowed = 1;
    w->program[split].jt = (uint8_t)distance;
    search(w, rules + middle, count - middle, permissions);
}

static int by_number(const void *a, const void *b) {
    uint32_t x = ((const struct rule *)a)->number, y = ((const struct rule *)b)->number;
    return (x > y) - (x < y);
}

size_t syscall_filter_build(unsigned permissions, struct sock_filter *program) {
    struct rule rules[sizeof forbidden / sizeof *forbidden + 16];
    size_t count = 0;
    for (size_t i = 0; i < sizeof forbidden / sizeof *forbidden; i++) {
        rules[count++] = (struct rule){(uint32_t)forbidden[i].number, RETURN, REFUSE(EPERM)};
    }
    if (permissions & SYSCALL_FILTER_UNIX_SOCKETS) {
        rules[count++] = (struct rule){SYS_socket, SOCKET, 0};
        /* Every connect() is the guard's to judge (supervisor.h). */
        rules[count++] = (struct rule){SYS_connect, RETURN, SECCOMP_RET_USER_NOTIF};
    } else if (permissions & SYSCALL_FILTER_NETWORK) {
        rules[count++] = (struct rule){SYS_socket, SOCKET, 0};
    } else {
        rules[count++] = (struct rule){SYS_socket, RETURN, REFUSE(EACCES)};
    }
    /* Memory in files no resource limit counts: only a display client, whose buffers are
     * shared with the display server, may make them. */
    if (!(permissions & SYSCALL_FILTER_SHARED_MEMORY)) {
        rules[count++] = (struct rule){SYS_memfd_create, RETURN, REFUSE(EPERM)};
        rules[count++] = (struct rule){SYS_shmget, RETURN, REFUSE(EPERM)};
    }
    rules[count++] = (struct rule){SYS_socketpair, SOCKETPAIR, 0};
    if (!(permissions & SYSCALL_FILTER_EXEC)) {
        rules[count++] = (struct rule){SYS_execve, RETURN, REFUSE(EACCES)};
        rules[count++] = (struct rule){SYS_execveat, RETURN, REFUSE(EACCES)};
#ifdef SYS_fork
        rules[count++] = (struct rule){SYS_fork, RETURN, REFUSE(EPERM)};
        rules[count++] = (struct rule){SYS_vfork, RETURN, REFUSE(EPERM)};
#endif
        /* Refused as unknown, so that glibc falls back to clone for threads. */
        rules[count++] = (struct rule){SYS_clone3, RETURN, SECCOMP_RET_ERRNO | ENOSYS};
        rules[count++] = (struct rule){SYS_clone, CLONE, 0};
    }
    qsort(rules, count, sizeof *rules, by_number);

    struct writer w = {program, 0, 0};
    emit(&w, STATEMENT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
    emit(&w, JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYSCALL_FILTER_ARCH, 1, 0));
    emit(&w, STATEMENT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    emit(&w, STATEMENT(BPF_LD | BPF_W | BPF_ABS, NUMBER));
#if defined(__x86_64__)
    /* x32 system calls: none of ours. */
    emit(&w, JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1));
    emit(&w, STATEMENT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS));
#endif
    search(&w, rules, count, permissions);
    /* Too long a program is no program: the kernel refuses an empty one, and the helper
     * then refuses to run the provider. */
    return w.overflowed ? 0 : w.length;
}
