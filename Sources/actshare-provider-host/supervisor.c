/* See supervisor.h. */
#include "supervisor.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

/* Connects under way at once (each in a thread of its own: a blocking socket may wait for
 * a busy server); past this, a connect fails with EAGAIN. */
#define MAX_PENDING 32

static int listener = -1;
static supervisor_address allowed[SUPERVISOR_MAX_ADDRESSES];
static size_t allowed_count;
/* Whether the provider has the network: then its other connects are made as asked. */
static int network;
static atomic_int pending;

/* The message the worker sends: the count, then each address's length and bytes. */
struct hand_over {
    uint32_t network;
    uint32_t count;
    struct {
        uint32_t length;
        char bytes[SUPERVISOR_MAX_ADDRESS];
    } addresses[SUPERVISOR_MAX_ADDRESSES];
};

int supervisor_hand_over(int channel, int listener_fd, const supervisor_address *addresses, size_t count, int with_network) {
    struct hand_over message;
    memset(&message, 0, sizeof message);
    message.network = with_network != 0;
    if (count > SUPERVISOR_MAX_ADDRESSES) count = SUPERVISOR_MAX_ADDRESSES;
    message.count = (uint32_t)count;
    for (size_t i = 0; i < count; i++) {
        message.addresses[i].length = (uint32_t)addresses[i].length;
        memcpy(message.addresses[i].bytes, addresses[i].bytes, addresses[i].length);
    }
    struct iovec part = {.iov_base = &message, .iov_len = sizeof message};
    union {
        char bytes[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr header = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes};
    struct cmsghdr *rights = CMSG_FIRSTHDR(&header);
    rights->cmsg_level = SOL_SOCKET;
    rights->cmsg_type = SCM_RIGHTS;
    rights->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(rights), &listener_fd, sizeof(int));
    ssize_t sent;
    do sent = sendmsg(channel, &header, MSG_NOSIGNAL);
    while (sent < 0 && errno == EINTR);
    return sent == (ssize_t)sizeof message ? 0 : -1;
}

static void reply(uint64_t id, int error) {
    struct seccomp_notif_resp response;
    memset(&response, 0, sizeof response);
    response.id = id;
    response.val = error ? -1 : 0;
    response.error = error ? -error : 0;
    /* ENOENT: the caller is gone (killed, or its call interrupted); nothing to answer. */
    ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &response);
}

/* Whether an AF_UNIX address of `length` bytes is one the policy lists. A path counts up
 * to its NUL, an abstract name to the address's end; a relative path never counts (it
 * would be resolved from the guard's directory, not the caller's). */
static int is_allowed(const struct sockaddr_un *address, socklen_t length) {
    size_t size = (size_t)length - offsetof(struct sockaddr_un, sun_path);
    const char *name = address->sun_path;
    if (size == 0) return 0;
    if (name[0] != '\0') {
        if (name[0] != '/') return 0;
        size = strnlen(name, size);
    }
    for (size_t i = 0; i < allowed_count; i++) {
        if (allowed[i].length == size && memcmp(allowed[i].bytes, name, size) == 0) return 1;
    }
    return 0;
}

struct connect_job {
    uint64_t id;
    int socket;
    socklen_t length;
    struct sockaddr_storage address;
};

/* Connects the caller's socket to the address checked, and answers with the outcome. */
static void *connect_for_caller(void *argument) {
    struct connect_job *job = argument;
    int result = connect(job->socket, (struct sockaddr *)&job->address, job->length);
    int error = result == 0 ? 0 : errno;
    close(job->socket);
    reply(job->id, error);
    free(job);
    atomic_fetch_sub(&pending, 1);
    return NULL;
}

/* One stopped connect(fd, address, length): answered here, or by a thread of its own. */
static void answer(const struct seccomp_notif *call) {
    int fd = (int)call->data.args[0];
    uint64_t pointer = call->data.args[1];
    socklen_t length = (socklen_t)call->data.args[2];
    if (call->data.nr != SYS_connect || length < sizeof(sa_family_t) || length > sizeof(struct sockaddr_storage)) {
        reply(call->id, EACCES);
        return;
    }
    struct connect_job *job = calloc(1, sizeof *job);
    if (!job) {
        reply(call->id, ENOMEM);
        return;
    }
    job->id = call->id;
    job->length = length;
    struct iovec local = {.iov_base = &job->address, .iov_len = length};
    struct iovec remote = {.iov_base = (void *)(uintptr_t)pointer, .iov_len = length};
    ssize_t copied = syscall(SYS_process_vm_readv, (pid_t)call->pid, &local, 1, &remote, 1, 0);
    /* The address was read from the process that made the call, not from one that took
     * its pid since: the call must still be waiting. */
    if (copied != (ssize_t)length || ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &call->id) != 0) {
        free(job);
        reply(call->id, copied != (ssize_t)length ? EFAULT : EACCES);
        return;
    }
    int granted = job->address.ss_family == AF_UNIX ? length <= sizeof(struct sockaddr_un) && is_allowed((struct sockaddr_un *)&job->address, length)
                                                    : network;
    if (!granted) {
        free(job);
        reply(call->id, EACCES);
        return;
    }
    int process = (int)syscall(SYS_pidfd_open, (pid_t)call->pid, 0);
    job->socket = process >= 0 ? (int)syscall(SYS_pidfd_getfd, process, fd, 0) : -1;
    int error = errno;
    if (process >= 0) close(process);
    if (job->socket < 0) {
        free(job);
        reply(call->id, error == EBADF ? EBADF : EACCES);
        return;
    }
    if (atomic_fetch_add(&pending, 1) >= MAX_PENDING) {
        atomic_fetch_sub(&pending, 1);
        close(job->socket);
        free(job);
        reply(call->id, EAGAIN);
        return;
    }
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 64 << 10);
    if (pthread_create(&thread, &attributes, connect_for_caller, job) != 0) {
        atomic_fetch_sub(&pending, 1);
        close(job->socket);
        free(job);
        reply(call->id, EAGAIN);
    }
    pthread_attr_destroy(&attributes);
}

/* Receives the listener and the addresses, then answers stopped connects until the
 * listener has no process left to stop (or the guard ends). */
static void *serve(void *argument) {
    int channel = (int)(intptr_t)argument;
    struct hand_over message;
    struct iovec part = {.iov_base = &message, .iov_len = sizeof message};
    union {
        char bytes[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    struct msghdr header = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes};
    ssize_t received;
    do received = recvmsg(channel, &header, MSG_CMSG_CLOEXEC);
    while (received < 0 && errno == EINTR);
    close(channel);
    struct cmsghdr *rights = CMSG_FIRSTHDR(&header);
    if (received != (ssize_t)sizeof message || !rights || rights->cmsg_type != SCM_RIGHTS
        || rights->cmsg_len != CMSG_LEN(sizeof(int))) {
        return NULL;
    }
    memcpy(&listener, CMSG_DATA(rights), sizeof(int));
    network = message.network != 0;
    for (uint32_t i = 0; i < message.count && i < SUPERVISOR_MAX_ADDRESSES; i++) {
        if (message.addresses[i].length == 0 || message.addresses[i].length > SUPERVISOR_MAX_ADDRESS) continue;
        allowed[allowed_count].length = message.addresses[i].length;
        memcpy(allowed[allowed_count].bytes, message.addresses[i].bytes, message.addresses[i].length);
        allowed_count++;
    }
    struct seccomp_notif_sizes sizes;
    if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0) return NULL;
    size_t size = sizes.seccomp_notif > sizeof(struct seccomp_notif) ? sizes.seccomp_notif : sizeof(struct seccomp_notif);
    struct seccomp_notif *call = malloc(size);
    if (!call) return NULL;
    for (;;) {
        memset(call, 0, size);
        if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, call) != 0) {
            /* EINTR, or ENOENT: a caller went away before its call was read. */
            if (errno == EINTR || errno == ENOENT) continue;
            break;
        }
        answer(call);
    }
    free(call);
    return NULL;
}

void supervisor_start(int channel) {
    /* Signals stay with the guard's main thread (it forwards and waits). */
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&thread, &attributes, serve, (void *)(intptr_t)channel) != 0) close(channel);
    pthread_attr_destroy(&attributes);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
}
