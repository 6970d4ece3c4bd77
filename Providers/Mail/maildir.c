/* Maildir: write tmp/NAME, fsync, link it to new/NAME, unlink tmp/NAME. A reader sees
 * the whole message in new/ or nothing: a writer killed halfway leaves only tmp/. */
#include "io.h"
#include "mail.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int make_directory(const char *path, char *error, size_t error_size) {
    if (mkdir(path, 0700) == 0 || errno == EEXIST) {
        struct stat info;
        if (stat(path, &info) == 0 && S_ISDIR(info.st_mode)) return 0;
        errno = ENOTDIR;
    }
    int failure = errno;
    snprintf(error, error_size, "cannot make the Maildir folder %s: %s", path, strerror(failure));
    return spool_failure(failure);
}

/* Files a killed writer left in tmp/ are removed after 36 hours, as the Maildir
 * convention has it (a writer still at work never takes that long). */
static void remove_abandoned(const char *tmp) {
    DIR *folder = opendir(tmp);
    if (!folder) return;
    time_t now = time(NULL);
    struct dirent *entry;
    while ((entry = readdir(folder))) {
        struct stat info;
        if (entry->d_name[0] == '.' || fstatat(dirfd(folder), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0) continue;
        if (S_ISREG(info.st_mode) && now - info.st_atime > 36 * 3600 && now - info.st_mtime > 36 * 3600) {
            unlinkat(dirfd(folder), entry->d_name, 0);
        }
    }
    closedir(folder);
}

int deliver_maildir(const char *directory, const buffer *message, buffer *where, char *error, size_t error_size) {
    char tmp[4200], new_directory[4200], cur[4200];
    snprintf(tmp, sizeof tmp, "%s/tmp", directory);
    snprintf(new_directory, sizeof new_directory, "%s/new", directory);
    snprintf(cur, sizeof cur, "%s/cur", directory);
    /* A Maildir++ folder of a new account (~/Maildir/.Drafts): its parents are made too. */
    make_parent_directories(directory, 0700);
    const char *folders[] = {directory, tmp, new_directory, cur};
    for (size_t i = 0; i < 4; i++) {
        int made = make_directory(folders[i], error, error_size);
        if (made != 0) return made;
    }
    remove_abandoned(tmp);
    char host[256] = "localhost";
    gethostname(host, sizeof host - 1);
    for (char *p = host; *p; p++) {
        if (*p == '/') *p = '_'; /* a name must not hold '/' or ':' */
        if (*p == ':') *p = '_';
    }
    static unsigned counter;
    char name[400], temporary[4800], final[4800];
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        snprintf(name, sizeof name, "%lld.M%06ldP%dQ%u.%s", (long long)now.tv_sec, now.tv_nsec / 1000, getpid(), ++counter, host);
        snprintf(temporary, sizeof temporary, "%s/%s", tmp, name);
        fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        int failure = errno;
        snprintf(error, error_size, "cannot write to the Maildir %s: %s", directory, strerror(failure));
        return spool_failure(failure);
    }
    if (write_all(fd, message->bytes, message->length) != 0 || fsync(fd) != 0) {
        snprintf(error, error_size, "cannot write to the Maildir %s: %s", directory, strerror(errno));
        close(fd);
        unlink(temporary);
        return -1;
    }
    close(fd);
    snprintf(final, sizeof final, "%s/%s", new_directory, name);
    /* link, not rename: it never replaces an existing message of that name. */
    if (link(temporary, final) != 0) {
        snprintf(error, error_size, "cannot deliver into %s: %s", new_directory, strerror(errno));
        unlink(temporary);
        return -1;
    }
    unlink(temporary);
    /* The new directory entry is made durable too. */
    int directory_fd = open(new_directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory_fd >= 0) {
        fsync(directory_fd);
        close(directory_fd);
    }
    buffer_append_string(where, final);
    return 0;
}
