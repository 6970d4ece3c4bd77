/*
 * mbox (Debian policy 11.6): a dot-lock (PATH.lock, made with link() so it also works
 * over NFS) and an fcntl lock on the file, then the message appended with mboxrd
 * quoting ('>' before every line matching ^>*From ), fsync'd, and on any failure the
 * file cut back to its old length.
 *
 * A writer killed outright cannot cut back what it wrote. So the dot-lock records the
 * mbox's length before the append; whoever next finds that lock left by a process
 * that no longer exists cuts the mbox back to that length before anything else.
 */
#include "mail.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* How long to wait for another writer's lock, and when a lock of a live process is
 * taken as stale all the same (liblockfile's five minutes). */
#define LOCK_WAIT_SECONDS 30
#define LOCK_STALE_SECONDS 300

static int write_all(int fd, const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t count = write(fd, bytes, length);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return -1;
        bytes += count;
        length -= (size_t)count;
    }
    return 0;
}

/* Reads "PID LENGTH" from a dot-lock; 0 when it says so. */
static int read_lock(const char *lock, long *pid, long long *length) {
    FILE *file = fopen(lock, "re");
    if (!file) return -1;
    int read = fscanf(file, "%ld %lld", pid, length);
    fclose(file);
    return read == 2 ? 0 : -1;
}

/* Takes the dot-lock, recording the mbox's length; recovers from a dead writer. */
static int dot_lock(const char *path, const char *lock, char *error, size_t error_size) {
    char unique[4400], host[256] = "localhost";
    gethostname(host, sizeof host - 1);
    snprintf(unique, sizeof unique, "%s.%s.%d.%ld", lock, host, getpid(), (long)time(NULL));
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (unsigned attempt = 0;; attempt++) {
        struct stat mbox;
        long long length = stat(path, &mbox) == 0 ? (long long)mbox.st_size : 0;
        int fd = open(unique, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0) {
            /* No dot-lock is possible in this folder (/var/mail for a user outside group
             * mail): the fcntl lock alone guards the append. */
            if (errno == EACCES || errno == EPERM || errno == EROFS) return 1;
            snprintf(error, error_size, "cannot lock %s: %s", path, strerror(errno));
            return -1;
        }
        char record[64];
        int size = snprintf(record, sizeof record, "%d %lld\n", getpid(), length);
        int written = write_all(fd, record, (size_t)size);
        close(fd);
        if (written != 0) {
            unlink(unique);
            snprintf(error, error_size, "cannot lock %s: %s", path, strerror(errno));
            return -1;
        }
        int linked = link(unique, lock);
        unlink(unique);
        if (linked == 0) return 0;
        if (errno != EEXIST) {
            snprintf(error, error_size, "cannot lock %s: %s", path, strerror(errno));
            return -1;
        }
        /* Held: by a writer that died (cut its partial message off, take the lock), by
         * one too long (stale), or by a live one (wait). */
        long holder = 0;
        long long before = 0;
        struct stat info;
        if (read_lock(lock, &holder, &before) == 0 && holder > 0 && kill((pid_t)holder, 0) != 0 && errno == ESRCH) {
            if (stat(path, &mbox) == 0 && mbox.st_size > before) truncate(path, before);
            unlink(lock);
            continue;
        }
        if (stat(lock, &info) == 0 && time(NULL) - info.st_mtime > LOCK_STALE_SECONDS) {
            unlink(lock);
            continue;
        }
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec > LOCK_WAIT_SECONDS) {
            snprintf(error, error_size, "cannot lock %s: %s is held by process %ld", path, lock, holder);
            return -1;
        }
        struct timespec pause = {0, (attempt < 10 ? 1 : 10) * 1000000L};
        nanosleep(&pause, NULL);
    }
}

/* The "From " line's date, in asctime form (UTC). */
static void from_line(buffer *out, const char *sender) {
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    char date[32];
    strftime(date, sizeof date, "%a %b %e %H:%M:%S %Y", &utc);
    buffer_append_format(out, "From %s %s\n", sender && *sender ? sender : "MAILER-DAEMON", date);
}

int deliver_mbox(const char *path, const char *sender, const buffer *message, char *error, size_t error_size) {
    /* The whole entry first: From_ line, quoted message, a blank line. */
    buffer entry = {0};
    from_line(&entry, sender);
    const char *line = message->bytes;
    const char *end = message->bytes + message->length;
    while (line < end) {
        const char *next = memchr(line, '\n', (size_t)(end - line));
        next = next ? next + 1 : end;
        const char *p = line;
        while (p < next && *p == '>') p++;
        if ((size_t)(next - p) >= 5 && memcmp(p, "From ", 5) == 0) buffer_append_string(&entry, ">");
        buffer_append(&entry, line, (size_t)(next - line));
        line = next;
    }
    if (entry.length && entry.bytes[entry.length - 1] != '\n') buffer_append_string(&entry, "\n");
    buffer_append_string(&entry, "\n");

    char lock[4200];
    snprintf(lock, sizeof lock, "%s.lock", path);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(error, error_size, "cannot open the mbox %s: %s", path, strerror(errno));
        buffer_free(&entry);
        return -1;
    }
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        snprintf(error, error_size, "the mbox %s is not a regular file", path);
        close(fd);
        buffer_free(&entry);
        return -1;
    }
    int dotted = dot_lock(path, lock, error, error_size);
    if (dotted < 0) {
        close(fd);
        buffer_free(&entry);
        return -1;
    }
    struct flock whole = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    int result = -1;
    while (fcntl(fd, F_SETLKW, &whole) != 0) {
        if (errno != EINTR) {
            snprintf(error, error_size, "cannot lock %s: %s", path, strerror(errno));
            goto unlock;
        }
    }
    /* Under both locks: append at the true end. The file was cut back to its old
     * length by dot_lock if a writer had died there. */
    off_t old_length = lseek(fd, 0, SEEK_END);
    if (old_length < 0) {
        snprintf(error, error_size, "cannot append to %s: %s", path, strerror(errno));
        goto unlock;
    }
    /* A message starts after a blank line: add what an earlier writer left out. */
    if (old_length > 0) {
        char tail[2] = {0, 0};
        off_t from = old_length >= 2 ? old_length - 2 : 0;
        ssize_t got = pread(fd, tail, (size_t)(old_length - from), from);
        const char *separator = got == 2 && tail[0] == '\n' && tail[1] == '\n' ? "" : (got >= 1 && tail[got - 1] == '\n') ? "\n" : "\n\n";
        if (*separator && write_all(fd, separator, strlen(separator)) != 0) goto failed;
    }
    if (write_all(fd, entry.bytes, entry.length) != 0 || fsync(fd) != 0) goto failed;
    result = 0;
    goto unlock;
failed:
    snprintf(error, error_size, "cannot append to %s: %s", path, strerror(errno));
    if (ftruncate(fd, old_length) == 0) fsync(fd);
unlock:
    whole.l_type = F_UNLCK;
    fcntl(fd, F_SETLK, &whole);
    close(fd);
    if (dotted == 0) unlink(lock);
    buffer_free(&entry);
    return result;
}
