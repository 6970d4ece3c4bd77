/* See cactshare_process_is_confined in CActShareSystem.h. */
#include "CActShareSystem.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int cactshare_process_is_confined(int pid) {
    char path[64], status[8192];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    /* A process whose status cannot be read (gone, or another user's) is not trusted. */
    if (fd < 0) return 1;
    size_t length = 0;
    for (;;) {
        ssize_t count = read(fd, status + length, sizeof status - 1 - length);
        if (count <= 0) break;
        length += (size_t)count;
        if (length == sizeof status - 1) break;
    }
    close(fd);
    status[length] = '\0';
    if (length == 0) return 1;
    return strstr(status, "\nNoNewPrivs:\t1\n") != NULL;
}
