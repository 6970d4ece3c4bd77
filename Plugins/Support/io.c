#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int read_file(const char *path, buffer *out) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat info;
    if (fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {
        close(fd);
        errno = EISDIR;
        return -1;
    }
    char chunk[65536];
    for (;;) {
        ssize_t count = read(fd, chunk, sizeof chunk);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) {
            int saved = errno;
            close(fd);
            errno = saved;
            return -1;
        }
        if (count == 0) break;
        buffer_append(out, chunk, (size_t)count);
    }
    close(fd);
    return 0;
}

int read_exactly(int fd, void *bytes, size_t length) {
    char *next = bytes;
    while (length > 0) {
        ssize_t count = read(fd, next, length);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return -1;
        next += count;
        length -= (size_t)count;
    }
    return 0;
}

int write_all(int fd, const void *bytes, size_t length) {
    const char *next = bytes;
    while (length > 0) {
        ssize_t count = write(fd, next, length);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) {
            if (count == 0) errno = EIO;
            return -1;
        }
        next += count;
        length -= (size_t)count;
    }
    return 0;
}
