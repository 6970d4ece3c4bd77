/*
 * actshare-filter-check: runs the provider's seccomp program (syscall_filter_build) in a
 * classic-BPF interpreter of its own, for every permission set, every system call number
 * up to 1023 (and x32's), both architectures' tags and the arguments its rules look at,
 * and compares each verdict with the rules as docs/SECURITY.md states them, written out
 * here apart from the program. Also bounds the instructions a number takes: the kernel
 * runs the program for every number when it installs it, so the search must stay short.
 *
 * Prints one line per permission set and exits 0, or names each wrong verdict and exits 1.
 * Run by ActShareHostTests (SyscallFilterTests).
 */
#include "../../../Sources/actshare-provider-host/syscall_filter.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>

/* What the filter must refuse whatever the manifest says, by the kernel's numbers. */
static const int never[] = {
    SYS_ptrace, SYS_process_vm_readv, SYS_process_vm_writev, SYS_mount, SYS_umount2, SYS_pivot_root, SYS_chroot,
    SYS_init_module, SYS_finit_module, SYS_delete_module, SYS_kexec_load, SYS_kexec_file_load, SYS_reboot,
    SYS_swapon, SYS_swapoff, SYS_bpf, SYS_perf_event_open, SYS_userfaultfd, SYS_keyctl, SYS_add_key,
    SYS_request_key, SYS_setns, SYS_unshare, SYS_open_by_handle_at, SYS_name_to_handle_at, SYS_acct,
    SYS_settimeofday, SYS_clock_settime, SYS_adjtimex, SYS_clock_adjtime, SYS_sethostname, SYS_setdomainname,
    SYS_fanotify_init, SYS_quotactl, SYS_syslog, SYS_vhangup, SYS_io_uring_setup, SYS_io_uring_enter,
    SYS_io_uring_register, SYS_fsopen, SYS_fsmount, SYS_move_mount, SYS_open_tree, SYS_fspick, SYS_pidfd_getfd,
#ifdef SYS_iopl
    SYS_iopl, SYS_ioperm,
#endif
};

#define REFUSED(error) (SYSCALL_FILTER_CAN_TRAP ? SECCOMP_RET_TRAP : (SECCOMP_RET_ERRNO | (error)))

/* The verdict the rules give. */
static uint32_t expected(unsigned permissions, const struct seccomp_data *call) {
    int network = permissions & SYSCALL_FILTER_NETWORK, exec = permissions & SYSCALL_FILTER_EXEC;
    int unix_sockets = permissions & SYSCALL_FILTER_UNIX_SOCKETS, shared = permissions & SYSCALL_FILTER_SHARED_MEMORY;
    int nr = call->nr;
    uint32_t family = (uint32_t)call->args[0], type = (uint32_t)call->args[1] & 0xf;
    if (call->arch != SYSCALL_FILTER_ARCH) return SECCOMP_RET_KILL_PROCESS;
#if defined(__x86_64__)
    if ((uint32_t)nr >= 0x40000000) return SECCOMP_RET_ERRNO | ENOSYS;
#endif
    for (size_t i = 0; i < sizeof never / sizeof *never; i++) {
        if (nr == never[i]) return REFUSED(EPERM);
    }
    if (nr == SYS_socket) {
        if (family == AF_UNIX) return unix_sockets && type == SOCK_STREAM ? SECCOMP_RET_ALLOW : REFUSED(EACCES);
        return network ? SECCOMP_RET_ALLOW : REFUSED(EACCES);
    }
    if (nr == SYS_connect) return unix_sockets ? SECCOMP_RET_USER_NOTIF : SECCOMP_RET_ALLOW;
    if (nr == SYS_socketpair) return type == SOCK_STREAM ? SECCOMP_RET_ALLOW : REFUSED(EACCES);
    if (nr == SYS_memfd_create || nr == SYS_shmget) return shared ? SECCOMP_RET_ALLOW : REFUSED(EPERM);
    if (!exec) {
        if (nr == SYS_execve || nr == SYS_execveat) return REFUSED(EACCES);
#ifdef SYS_fork
        if (nr == SYS_fork || nr == SYS_vfork) return REFUSED(EPERM);
#endif
        if (nr == SYS_clone3) return SECCOMP_RET_ERRNO | ENOSYS;
        if (nr == SYS_clone) return (call->args[0] & CLONE_THREAD) ? SECCOMP_RET_ALLOW : REFUSED(EPERM);
    }
    return SECCOMP_RET_ALLOW;
}

/* Runs `program` on `call` as the kernel's classic-BPF interpreter would, for the
 * instructions a seccomp program may hold; counts the instructions run. Returns 0 and the
 * verdict, or -1 for an instruction it does not know or a jump out of the program. */
static int run(const struct sock_filter *program, size_t length, const struct seccomp_data *call, uint32_t *verdict,
               size_t *steps) {
    uint32_t a = 0;
    *steps = 0;
    for (size_t pc = 0; pc < length; pc++) {
        const struct sock_filter *i = &program[pc];
        (*steps)++;
        switch (i->code) {
        case BPF_LD | BPF_W | BPF_ABS:
            if (i->k % 4 != 0 || i->k + 4 > sizeof *call) return -1;
            memcpy(&a, (const char *)call + i->k, 4);
            break;
        case BPF_ALU | BPF_AND | BPF_K: a &= i->k; break;
        case BPF_JMP | BPF_JA: pc += i->k; break;
        case BPF_JMP | BPF_JEQ | BPF_K: pc += a == i->k ? i->jt : i->jf; break;
        case BPF_JMP | BPF_JGE | BPF_K: pc += a >= i->k ? i->jt : i->jf; break;
        case BPF_JMP | BPF_JSET | BPF_K: pc += (a & i->k) ? i->jt : i->jf; break;
        case BPF_RET | BPF_K: *verdict = i->k; return 0;
        default: return -1;
        }
    }
    return -1;
}

/* The most instructions a call may take: a search of about 60 rules, and a block (the
 * list the filter was before took 120 for most calls). */
#define MAX_STEPS 20

int main(void) {
    static const uint64_t firsts[] = {AF_UNIX, AF_INET, AF_INET6, AF_NETLINK, 0, CLONE_VM | CLONE_THREAD | CLONE_SIGHAND, CLONE_VM | CLONE_VFORK, 0x7fffffff};
    static const uint64_t seconds[] = {SOCK_STREAM, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, SOCK_DGRAM, SOCK_DGRAM | SOCK_CLOEXEC, SOCK_SEQPACKET, SOCK_RAW, 0};
    int wrong = 0;
    for (unsigned permissions = 0; permissions < 16; permissions++) {
        struct sock_filter program[SYSCALL_FILTER_MAX_LENGTH];
        size_t length = syscall_filter_build(permissions, program);
        if (length == 0 || length > SYSCALL_FILTER_MAX_LENGTH) {
            printf("permissions %u: no program (%zu instructions)\n", permissions, length);
            return 1;
        }
        size_t most = 0, checked = 0;
        for (uint32_t n = 0; n < 1024 + 8; n++) {
            uint32_t nr = n < 1024 ? n : 0x40000000 + (n - 1024);
            for (size_t f = 0; f < sizeof firsts / sizeof *firsts; f++) {
                for (size_t s = 0; s < sizeof seconds / sizeof *seconds; s++) {
                    for (int native = 0; native < 2; native++) {
                        struct seccomp_data call = {.nr = (int)nr, .arch = native ? SYSCALL_FILTER_ARCH : 0x40000003u};
                        call.args[0] = firsts[f];
                        call.args[1] = seconds[s];
                        uint32_t verdict = 0, want = expected(permissions, &call);
                        size_t steps = 0;
                        checked++;
                        if (run(program, length, &call, &verdict, &steps) != 0) {
                            printf("permissions %u, call %u: the program ran off its end or holds an unknown instruction\n", permissions, nr);
                            return 1;
                        }
                        if (steps > most) most = steps;
                        if (verdict != want && wrong++ < 20) {
                            printf("permissions %u, call %u (%s), arguments %#llx %#llx, %s: 0x%08x, should be 0x%08x\n", permissions, nr,
                                   syscall_filter_name(nr), (unsigned long long)call.args[0], (unsigned long long)call.args[1],
                                   native ? "native" : "another architecture", verdict, want);
                        }
                    }
                }
            }
        }
        printf("permissions %u: %zu instructions, at most %zu run per call, %zu calls judged\n", permissions, length, most, checked);
        if (most > MAX_STEPS) {
            printf("permissions %u: %zu instructions run for one call, more than %d\n", permissions, most, MAX_STEPS);
            wrong++;
        }
    }
    return wrong ? 1 : 0;
}
