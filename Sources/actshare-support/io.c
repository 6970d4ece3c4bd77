#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int read_file(const char *path, buffer *out, size_t limit) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return -1;
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || (size_t)info.st_size > limit) {
        int code = errno;
        if (code == 0 || S_ISDIR(info.st_mode) || !S_ISREG(info.st_mode) || (size_t)info.st_size > limit) {
            code = S_ISDIR(info.st_mode) ? EISDIR : !S_ISREG(info.st_mode) ? ESPIPE : EFBIG;
        }
        close(fd);
        errno = code;
        return -1;
    }
    size_t start = out->length;
    char chunk[65536];
    for (;;) {
        if (out->length - start > limit) {
            close(fd);
            errno = EFBIG; /* it grew while being read */
            return -1;
        }
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

const char *io_error(int code) {
    switch (code) {
    case ESPIPE: return "is a FIFO, device or socket, not a file";
    case EISDIR: return "is a folder, not a file";
    default: return strerror(code);
    }
}

int make_parent_directories(const char *path, mode_t mode) {
    char copy[4096];
    size_t length = strlen(path);
    if (length >= sizeof copy) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(copy, path, length + 1);
    char *slash = strrchr(copy, '/');
    if (!slash || slash == copy) return 0;
    *slash = '\0';
    for (char *p = copy + 1; ; p++) {
        if (*p == '/' || *p == '\0') {
            char saved = *p;
            *p = '\0';
            if (mkdir(copy, mode) != 0 && errno != EEXIST) return -1;
            *p = saved;
            if (saved == '\0') break;
        }
    }
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

void user_directory(const char *key, const char *fallback, buffer *out) {
    const char *home = getenv("HOME") ? getenv("HOME") : "/";
    const char *config = getenv("XDG_CONFIG_HOME");
    char path[4200];
    if (config && *config) snprintf(path, sizeof path, "%s/user-dirs.dirs", config);
    else snprintf(path, sizeof path, "%s/.config/user-dirs.dirs", home);
    FILE *file = fopen(path, "re");
    if (file) {
        char line[4200];
        size_t length = strlen(key);
        while (fgets(line, sizeof line, file)) {
            if (strncmp(line, key, length) != 0 || strncmp(line + length, "=\"", 2) != 0) continue;
            char *value = line + length + 2, *close = strchr(value, '"');
            if (!close) break;
            *close = '\0';
            if (strncmp(value, "$HOME", 5) == 0) {
                buffer_append_string(out, home);
                buffer_append_string(out, value + 5);
            } else {
                buffer_append_string(out, value);
            }
            fclose(file);
            return;
        }
        fclose(file);
    }
    buffer_append_format(out, "%s/%s", home, fallback);
}
