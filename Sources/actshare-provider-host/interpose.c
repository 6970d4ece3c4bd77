/*
 * The C library calls through which a provider usually opens files and connects, made
 * here so that a refusal by the sandbox can be named (sandbox_note): "tried to open
 * /home/u/.ssh/id_ed25519". Only these are exported from the helper (see
 * meson.build beside this file), so a provider's calls reach them before the C library's.
 *
 * They report; the kernel enforces. A provider that makes the system call itself is
 * refused all the same, only less precisely described.
 */
#include "sandbox.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#define EXPORTED __attribute__((visibility("default")))

/* A refusal of `path` the sandbox made (not the file's own permissions): noted. */
static void judge_path(const char *path, unsigned rights) {
    if (!sandbox_active() || (errno != EACCES && errno != EPERM) || !path) return;
    int saved = errno;
    if (!sandbox_grants(path, rights)) sandbox_note(ASP_REFUSED_OPEN, path);
    errno = saved;
}

static unsigned rights_of(int flags) {
    return (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC)) ? ASP_RIGHT_WRITE : ASP_RIGHT_READ;
}

static int open_at(int directory, const char *path, int flags, mode_t mode) {
    int fd = (int)syscall(SYS_openat, directory, path, flags, mode);
    if (fd < 0) judge_path(path, rights_of(flags));
    return fd;
}

static mode_t mode_argument(int flags, va_list arguments) {
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(arguments, int) : 0;
}

/* open, open64, openat and openat64: the mode is passed only with O_CREAT or O_TMPFILE. */
#define DEFINE_OPEN(name)                                                                  \
    EXPORTED int name(const char *path, int flags, ...) {                                  \
        va_list arguments;                                                                 \
        va_start(arguments, flags);                                                        \
        mode_t mode = mode_argument(flags, arguments);                                     \
        va_end(arguments);                                                                 \
        return open_at(AT_FDCWD, path, flags, mode);                                       \
    }
#define DEFINE_OPENAT(name)                                                                \
    EXPORTED int name(int directory, const char *path, int flags, ...) {                   \
        va_list arguments;                                                                 \
        va_start(arguments, flags);                                                        \
        mode_t mode = mode_argument(flags, arguments);                                     \
        va_end(arguments);                                                                 \
        return open_at(directory, path, flags, mode);                                      \
    }
DEFINE_OPEN(open)
DEFINE_OPEN(open64)
DEFINE_OPENAT(openat)
DEFINE_OPENAT(openat64)

EXPORTED int creat(const char *path, mode_t mode) {
    return open_at(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, mode);
}

static int fopen_flags(const char *mode) {
    int flags = mode[0] == 'r' ? O_RDONLY : mode[0] == 'w' ? O_WRONLY | O_CREAT | O_TRUNC : O_WRONLY | O_CREAT | O_APPEND;
    if (strchr(mode, '+')) flags = (flags & ~O_ACCMODE) | O_RDWR;
    if (strchr(mode, 'x')) flags |= O_EXCL;
    if (strchr(mode, 'e')) flags |= O_CLOEXEC;
    return flags;
}

EXPORTED FILE *fopen(const char *path, const char *mode) {
    if (!mode || !strchr("rwa", mode[0])) {
        errno = EINVAL;
        return NULL;
    }
    int fd = open_at(AT_FDCWD, path, fopen_flags(mode), 0666);
    if (fd < 0) return NULL;
    FILE *file = fdopen(fd, mode);
    if (!file) close(fd);
    return file;
}

EXPORTED FILE *fopen64(const char *path, const char *mode) { return fopen(path, mode); }

EXPORTED DIR *opendir(const char *path) {
    int fd = open_at(AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (fd < 0) return NULL;
    DIR *directory = fdopendir(fd);
    if (!directory) close(fd);
    return directory;
}

EXPORTED int mkdir(const char *path, mode_t mode) {
    int result = (int)syscall(SYS_mkdirat, AT_FDCWD, path, mode);
    if (result != 0) judge_path(path, ASP_RIGHT_WRITE);
    return result;
}

EXPORTED int connect(int fd, const struct sockaddr *address, socklen_t length) {
    int result = (int)syscall(SYS_connect, fd, address, length);
    if (result != 0 && sandbox_active() && (errno == EACCES || errno == EPERM) && address) {
        int saved = errno;
        char text[INET6_ADDRSTRLEN + 16] = "";
        if (address->sa_family == AF_INET && length >= sizeof(struct sockaddr_in)) {
            const struct sockaddr_in *in = (const struct sockaddr_in *)address;
            inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
            snprintf(text + strlen(text), sizeof text - strlen(text), ":%u", ntohs(in->sin_port));
        } else if (address->sa_family == AF_INET6 && length >= sizeof(struct sockaddr_in6)) {
            const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)address;
            text[0] = '[';
            inet_ntop(AF_INET6, &in6->sin6_addr, text + 1, sizeof text - 1);
            snprintf(text + strlen(text), sizeof text - strlen(text), "]:%u", ntohs(in6->sin6_port));
        }
        if (text[0]) sandbox_note(ASP_REFUSED_CONNECT, text);
        if (address->sa_family == AF_UNIX && length > offsetof(struct sockaddr_un, sun_path)) {
            /* A path, or @ and an abstract name, as ss(8) shows them. */
            const struct sockaddr_un *un = (const struct sockaddr_un *)address;
            size_t size = length - offsetof(struct sockaddr_un, sun_path);
            char name[sizeof un->sun_path + 2] = "";
            if (un->sun_path[0] == '\0') {
                name[0] = '@';
                memcpy(name + 1, un->sun_path + 1, size - 1);
                name[size] = '\0';
            } else {
                memcpy(name, un->sun_path, strnlen(un->sun_path, size));
            }
            sandbox_note(ASP_REFUSED_UNIX, name);
        }
        errno = saved;
    }
    return result;
}
