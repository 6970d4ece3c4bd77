/*
 * mbox (Debian policy 11.6): a dot-lock (PATH.lock, made with link() so it also works
 * over NFS) and an fcntl lock on the file, then the message appended with mboxrd
 * quoting ('>' before every line matching ^>*From ), fsync'd, and on any failure the
 * file cut back to its old length.
 *
 * A writer killed outright cannot cut back what it wrote, so a guardian does: a small
 * child forked before the append, told the old length, that cuts the mbox back and
 * removes the dot-lock if its parent dies before saying the message is complete. The
 * dot-lock names both processes and, once the fcntl lock is held, the old length;
 * other writers wait while either lives, and whoever finds the lock left by two dead
 * ones (both killed at once) cuts the mbox back to that length first — holding the
 * fcntl lock while it looks, so that it never mistakes a writer that has just finished
 * for a dead one. The file a writer links to the dot-lock (LOCK.HOST.PID) is removed by
 * its guardian if the writer dies, and any left by killed writers of older versions or
 * other programs is removed by the next writer. Without a dot-lock (a folder we
 * cannot write) there is no guardian: nothing would stop another writer appending
 * after the torn message before the guardian cut it.
 */
#include "io.h"
#include "mail.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long to wait for another writer's lock, and when a lock of a live process is
 * taken as stale all the same (liblockfile's five minutes). */
#define LOCK_WAIT_SECONDS 30
#define LOCK_STALE_SECONDS 300

/* Reads "PID GUARDIAN LENGTH" from a dot-lock; 0 when it says so. */
static int read_lock(const char *lock, long *pid, long *guardian, long long *length) {
    FILE *file = fopen(lock, "re");
    if (!file) return -1;
    int read = fscanf(file, "%ld %ld %lld", pid, guardian, length);
    fclose(file);
    return read == 3 ? 0 : -1;
}

static int alive(long pid) { return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno != ESRCH); }

/* The file a writer links to the dot-lock: LOCK.HOST.PID, the same for the writer and
 * its guardian, so that either may remove it. */
static void unique_name(char *out, size_t size, const char *lock, long pid) {
    char host[256] = "localhost";
    gethostname(host, sizeof host - 1);
    for (char *c = host; *c; c++) {
        if (*c == '/') *c = '_';
    }
    snprintf(out, size, "%s.%s.%ld", lock, host, pid);
}

/* Removes what killed writers left beside the mbox: LOCK.HOST.PID files of this host
 * whose process is gone, and any such file (another host's, over NFS) older than
 * LOCK_STALE_SECONDS, as procmail and mutt do with their own. */
static void remove_stale_unique_files(const char *lock) {
    const char *slash = strrchr(lock, '/');
    char directory[4200];
    snprintf(directory, sizeof directory, "%.*s", slash ? (int)(slash - lock) + (slash == lock) : 1, slash ? lock : ".");
    const char *base = slash ? slash + 1 : lock;
    char mine[4400];
    unique_name(mine, sizeof mine, base, 0);
    size_t host_prefix = strlen(mine) - 1; /* BASE.HOST. */
    size_t base_length = strlen(base);
    DIR *folder = opendir(directory);
    if (!folder) return;
    time_t now = time(NULL);
    struct dirent *entry;
    for (int seen = 0; (entry = readdir(folder)) && seen < 100000; seen++) {
        const char *name = entry->d_name;
        if (strncmp(name, base, base_length) != 0 || name[base_length] != '.') continue;
        char path[8800];
        snprintf(path, sizeof path, "%s/%s", directory, name);
        struct stat info;
        if (lstat(path, &info) != 0 || !S_ISREG(info.st_mode)) continue;
        int stale = now - info.st_mtime > LOCK_STALE_SECONDS;
        if (!stale && strncmp(name, mine, host_prefix) == 0) {
            char *end;
            long pid = strtol(name + host_prefix, &end, 10);
            stale = *end == '\0' && pid > 0 && !alive(pid);
        }
        if (stale) unlink(path);
    }
    closedir(folder);
}

/* The guardian's life: learn the old length, then wait for "done" or its parent's death. */
static void guard(int input, const char *path, const char *lock, pid_t parent) {
    /* It must not hold the caller's terminal or pipes, nor stop with its process group. */
    int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null_fd >= 0) {
        dup2(null_fd, 0);
        dup2(null_fd, 1);
        dup2(null_fd, 2);
    }
    if (input > 3) close_range(3, (unsigned)input - 1, 0);
    close_range((unsigned)input + 1, ~0U, 0);
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    char message[64];
    size_t used = 0;
    for (;;) {
        ssize_t count = read(input, message + used, sizeof message - 1 - used);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        used += (size_t)count;
        if (used >= sizeof message - 1 || memchr(message, 'd', used)) break;
    }
    message[used] = '\0';
    long long length = 0;
    if (strchr(message, 'd')) _exit(0);
    /* The parent died: whatever it was doing, its link file goes. */
    char unique[4400];
    unique_name(unique, sizeof unique, lock, parent);
    unlink(unique);
    if (sscanf(message, "L%lld", &length) != 1) {
        /* Killed while taking the dot-lock: remove it if it is the parent's. */
        long holder = 0, guardian = 0;
        long long recorded = 0;
        if (read_lock(lock, &holder, &guardian, &recorded) == 0 && holder == parent && recorded < 0) unlink(lock);
        _exit(0);
    }
    /* The parent died before the message was complete: cut it off, if the lock is still
     * the parent's (nobody has recovered and appended since). */
    long holder = 0, guardian = 0;
    long long recorded = 0;
    if (read_lock(lock, &holder, &guardian, &recorded) == 0 && holder == parent) {
        if (truncate(path, length) == 0) {
            int fd = open(path, O_WRONLY | O_CLOEXEC);
            if (fd >= 0) {
                fsync(fd);
                close(fd);
            }
        }
        unlink(lock);
    }
    _exit(0);
}

/* Forks the guardian; its pipe's write end goes in `*tell`, or -1 without one. */
static pid_t start_guardian(const char *path, const char *lock, int *tell) {
    int fds[2];
    *tell = -1;
    if (pipe2(fds, O_CLOEXEC) != 0) return -1;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[1]);
        guard(fds[0], path, lock, parent);
    }
    close(fds[0]);
    if (pid < 0) {
        close(fds[1]);
        return -1;
    }
    *tell = fds[1];
    return pid;
}

/* Under the mbox's fcntl lock, which a live writer holds for all of its append (and
 * releases only after removing its dot-lock), looks at a dot-lock again: if it still
 * names processes that are dead, cuts the mbox back to the length it records (-1:
 * nothing was appended yet) and removes it. 1 if it removed the lock. */
static int remove_dead_lock(int fd, const char *lock) {
    struct flock whole = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    while (fcntl(fd, F_SETLKW, &whole) != 0) {
        if (errno != EINTR) return 0;
    }
    long holder = 0, guardian = 0;
    long long before = 0;
    struct stat mbox, info;
    int removed = 0;
    if (read_lock(lock, &holder, &guardian, &before) == 0 && !alive(holder) && !alive(guardian)) {
        if (before >= 0 && fstat(fd, &mbox) == 0 && mbox.st_size > before && ftruncate(fd, before) == 0) fsync(fd);
        removed = unlink(lock) == 0;
    } else if (stat(lock, &info) == 0 && time(NULL) - info.st_mtime > LOCK_STALE_SECONDS) {
        removed = unlink(lock) == 0;
    }
    whole.l_type = F_UNLCK;
    fcntl(fd, F_SETLK, &whole);
    return removed;
}

/* Writes "PID GUARDIAN LENGTH" into a file. */
static int write_record(const char *file, int flags, pid_t guardian, long long length) {
    int fd = open(file, O_WRONLY | O_CLOEXEC | flags, 0600);
    if (fd < 0) return -1;
    char record[64];
    int size = snprintf(record, sizeof record, "%d %d %lld\n", getpid(), (int)guardian, length);
    int written = write_all(fd, record, (size_t)size);
    close(fd);
    return written;
}

/* Takes the dot-lock, naming this process and its guardian (the length is not known
 * yet: -1). 0 when taken; 1 when no dot-lock can be made in that folder (/var/mail for
 * a user outside group mail: the fcntl lock alone guards the append); -1 on error. */
static int dot_lock(int fd, const char *path, const char *lock, pid_t guardian, char *error, size_t error_size) {
    char unique[4400];
    unique_name(unique, sizeof unique, lock, getpid());
    /* One with this process's number is left from a dead one before it. */
    unlink(unique);
    remove_stale_unique_files(lock);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (unsigned attempt = 0;; attempt++) {
        if (write_record(unique, O_CREAT | O_EXCL, guardian, -1) != 0) {
            int saved = errno;
            unlink(unique);
            if (saved == EACCES || saved == EPERM || saved == EROFS) return 1;
            snprintf(error, error_size, "cannot lock %s: %s", path, strerror(saved));
            errno = saved;
            return -1;
        }
        int linked = link(unique, lock);
        int saved = errno;
        unlink(unique);
        if (linked == 0) return 0;
        if (saved != EEXIST) {
            snprintf(error, error_size, "cannot lock %s: %s", path, strerror(saved));
            errno = saved;
            return -1;
        }
        /* Held: by a live writer (wait), or left by a dead one (recover, then retry). */
        if (remove_dead_lock(fd, lock)) continue;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec > LOCK_WAIT_SECONDS) {
            long holder = 0, holder_guardian = 0;
            long long before = 0;
            read_lock(lock, &holder, &holder_guardian, &before);
            snprintf(error, error_size, "cannot lock %s: %s is held by process %ld", path, lock, holder);
            errno = EAGAIN;
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
    make_parent_directories(path, 0700); /* ~/Mail/sent on a new account */
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        int failure = errno;
        snprintf(error, error_size, "cannot open the mbox %s: %s", path, strerror(failure));
        buffer_free(&entry);
        return spool_failure(failure);
    }
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        snprintf(error, error_size, "the mbox %s is not a regular file", path);
        close(fd);
        buffer_free(&entry);
        return SPOOL_UNUSABLE;
    }
    int tell = -1;
    pid_t guardian = start_guardian(path, lock, &tell);
    int dotted = dot_lock(fd, path, lock, guardian, error, error_size);
    if (dotted != 0 && tell >= 0) {
        /* No dot-lock (or none taken): the guardian has nothing to guard. */
        write_all(tell, "d", 1);
        close(tell);
        tell = -1;
    }
    if (dotted < 0) {
        if (guardian > 0) waitpid(guardian, NULL, 0);
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
    if (dotted == 0 && write_record(lock, O_TRUNC, guardian, (long long)old_length) != 0) {
        snprintf(error, error_size, "cannot lock %s: %s", path, strerror(errno));
        goto unlock;
    }
    if (tell >= 0) {
        char told[40];
        int size = snprintf(told, sizeof told, "L%lld\n", (long long)old_length);
        write_all(tell, told, (size_t)size);
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
    if (tell >= 0) {
        /* Complete, or cut back by us: either way the guardian's work is done. */
        write_all(tell, "d", 1);
        close(tell);
    }
    /* The dot-lock goes first: while we hold the fcntl lock, nobody can take our lock
     * for a dead writer's and cut our message off. */
    if (dotted == 0) unlink(lock);
    whole.l_type = F_UNLCK;
    fcntl(fd, F_SETLK, &whole);
    close(fd);
    if (guardian > 0) waitpid(guardian, NULL, 0);
    buffer_free(&entry);
    return result;
}
