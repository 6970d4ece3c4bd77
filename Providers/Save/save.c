/*
 * Save to…: copies the items into a folder (the option `folder`, asked in the share sheet
 * with the folder chooser; else the XDG downloads folder). Files keep their names, a folder
 * is copied as a tree, text becomes NAME.txt after its first line, a URL a link file
 * (NAME.desktop, Type=Link) that file managers open.
 *
 * Nothing is ever replaced, and nothing half-written ever has a real name: each item is
 * written as a hidden partial file (or folder) in the destination, then renamed with
 * RENAME_NOREPLACE to its name, or to "name (1).ext", "name (2).ext"… when that is taken.
 * A failure (a full disk) or a cancel removes the partial one. In a shared folder, a
 * symbolic link is copied as the file it points to only if that is inside the shared
 * folder; others (and FIFOs, devices, sockets) are left out and said. Everything goes
 * through directory descriptors, opened without following links.
 *
 * It runs sandboxed like any provider: it reads the items and writes the chosen folder.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "buffer.h"
#include "io.h"

#include <actshare/provider.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

ACTSHARE_EXPORT int32_t save_perform(const actshare_request *request, actshare_session *session);

/* The deepest folder tree copied, and the most names tried for one item. */
#define MAX_DEPTH 64
#define MAX_TRIES 1000

typedef struct {
    actshare_session *session;
    uint64_t done, total;
    char root[PATH_MAX]; /* the shared folder being copied, resolved: links may point inside it */
    int cancelled;
} copying;

static void progress(copying *c, uint64_t bytes) {
    c->done += bytes;
    if (c->total) c->session->progress(c->session, (double)c->done / (double)c->total);
}

/* Copies the open file `from` into a new file `name` of folder `into`. 0, or -1 with errno. */
static int copy_file(copying *c, int from, int into, const char *name, mode_t mode) {
    int to = openat(into, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode & 0777);
    if (to < 0) return -1;
    static char chunk[1 << 17];
    for (;;) {
        if (c->session->is_cancelled(c->session)) {
            c->cancelled = 1;
            close(to);
            errno = ECANCELED;
            return -1;
        }
        ssize_t count = read(from, chunk, sizeof chunk);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0 || (count > 0 && write_all(to, chunk, (size_t)count) != 0)) {
            int code = errno;
            close(to);
            errno = code;
            return -1;
        }
        if (count == 0) break;
        progress(c, (uint64_t)count);
    }
    if (close(to) != 0) return -1;
    return 0;
}

/* Removes `name` in `folder`, a tree included (a partial copy). */
static void remove_tree(int folder, const char *name, int depth) {
    if (unlinkat(folder, name, 0) == 0 || errno != EISDIR || depth > MAX_DEPTH) return;
    int inner = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *dir = inner >= 0 ? fdopendir(inner) : NULL;
    for (struct dirent *entry; dir && (entry = readdir(dir));) {
        if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0) remove_tree(dirfd(dir), entry->d_name, depth + 1);
    }
    if (dir) closedir(dir);
    else if (inner >= 0) close(inner);
    unlinkat(folder, name, AT_REMOVEDIR);
}

static void warn(copying *c, const char *format, const char *name) {
    char line[PATH_MAX + 200];
    snprintf(line, sizeof line, format, name);
    c->session->log(c->session, ACTSHARE_LOG_WARNING, line);
}

/* Copies the folder `from` into a new folder `name` of `into`, entry by entry. 0 or -1. */
static int copy_tree(copying *c, int from, int into, const char *name, const char *path, int depth) {
    if (depth > MAX_DEPTH) {
        errno = ELOOP;
        return -1;
    }
    if (mkdirat(into, name, 0755) != 0) return -1;
    int to = openat(into, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int listing = dup(from);
    DIR *dir = listing >= 0 ? fdopendir(listing) : NULL;
    if (to < 0 || !dir) {
        int code = errno;
        if (to >= 0) close(to);
        if (listing >= 0 && !dir) close(listing);
        errno = code;
        return -1;
    }
    int result = 0;
    for (struct dirent *entry; result == 0 && (entry = readdir(dir));) {
        const char *each = entry->d_name;
        if (strcmp(each, ".") == 0 || strcmp(each, "..") == 0) continue;
        char inner[PATH_MAX];
        snprintf(inner, sizeof inner, "%s/%s", path, each);
        struct stat info;
        if (fstatat(from, each, &info, AT_SYMLINK_NOFOLLOW) != 0) continue;
        if (S_ISLNK(info.st_mode)) {
            /* Followed only to a file inside what was shared. */
            char resolved[PATH_MAX];
            size_t root = strlen(c->root);
            if (!realpath(inner, resolved) || strncmp(resolved, c->root, root) != 0 || resolved[root] != '/'
                || stat(resolved, &info) != 0 || !S_ISREG(info.st_mode)) {
                warn(c, "%s is a link to something outside what was shared: not copied", inner);
                continue;
            }
            int source = open(resolved, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
            result = source < 0 ? -1 : copy_file(c, source, to, each, info.st_mode);
            if (source >= 0) close(source);
        } else if (S_ISREG(info.st_mode)) {
            int source = openat(from, each, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
            result = source < 0 ? -1 : copy_file(c, source, to, each, info.st_mode);
            if (source >= 0) close(source);
        } else if (S_ISDIR(info.st_mode)) {
            int source = openat(from, each, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            result = source < 0 ? -1 : copy_tree(c, source, to, each, inner, depth + 1);
            if (source >= 0) close(source);
        } else {
            warn(c, "%s is not a file or a folder: not copied", inner);
        }
    }
    int code = errno;
    closedir(dir);
    close(to);
    errno = code;
    return result;
}

/* Bytes to copy under `path` (a file's size, a folder's files' sizes), for the progress. */
static uint64_t size_of(const char *path, int depth) {
    struct stat info;
    if (lstat(path, &info) != 0) return 0;
    if (!S_ISDIR(info.st_mode)) return S_ISREG(info.st_mode) ? (uint64_t)info.st_size : 0;
    uint64_t total = 0;
    DIR *dir = depth < MAX_DEPTH ? opendir(path) : NULL;
    for (struct dirent *entry; dir && (entry = readdir(dir));) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        char inner[PATH_MAX];
        snprintf(inner, sizeof inner, "%s/%s", path, entry->d_name);
        total += size_of(inner, depth + 1);
    }
    if (dir) closedir(dir);
    return total;
}

/* Gives the partial `partial` of `folder` its name, `name` or `name (N).ext`, never
 * replacing one there; the name given goes into `placed`. 0, or -1 with errno. */
static int place(int folder, const char *partial, const char *name, char *placed, size_t size) {
    const char *dot = strrchr(name, '.');
    size_t stem = dot && dot != name ? (size_t)(dot - name) : strlen(name);
    for (int attempt = 0; attempt < MAX_TRIES; attempt++) {
        if (attempt == 0) snprintf(placed, size, "%s", name);
        else snprintf(placed, size, "%.*s (%d)%s", (int)stem, name, attempt, name + stem);
        if (renameat2(folder, partial, folder, placed, RENAME_NOREPLACE) == 0) return 0;
        if (errno != EEXIST) return -1;
    }
    errno = EEXIST;
    return -1;
}

/* A file name from text: its first line, at most 60 bytes, cut between characters, with
 * `/` and controls made spaces; `fallback` when nothing is left. */
static void name_from(const char *text, const char *fallback, const char *extension, char *name, size_t size) {
    size_t length = 0;
    char stem[64];
    const unsigned char *at = (const unsigned char *)text;
    for (; *at && *at != '\n' && *at != '\r' && length < 60; at++) {
        stem[length++] = (*at < 0x20 || *at == '/' || *at == 0x7F) ? ' ' : (char)*at;
    }
    /* Cut in the middle of a character: the part of it that came goes. */
    if ((*at & 0xC0) == 0x80) {
        while (length > 0 && ((unsigned char)stem[length - 1] & 0xC0) == 0x80) length--;
        if (length > 0) length--;
    }
    stem[length] = '\0';
    char *start = stem;
    while (*start == ' ' || *start == '.') start++; /* not hidden, not `..` */
    for (char *end = start + strlen(start); end > start && end[-1] == ' ';) *--end = '\0';
    snprintf(name, size, "%s%s", *start ? start : fallback, extension);
}

/* Writes `bytes` as a new file `name` of `folder`. 0, or -1 with errno. */
static int write_new(int folder, const char *name, const char *bytes, size_t length) {
    int to = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (to < 0) return -1;
    if (write_all(to, bytes, length) != 0) {
        int code = errno;
        close(to);
        errno = code;
        return -1;
    }
    return close(to);
}

/* Saves one item into `folder` (opened at `destination`): 0, or a status with the error set. */
static int32_t save_item(copying *c, const actshare_item *item, int folder, const char *destination) {
    char name[NAME_MAX + 1], partial[NAME_MAX + 1], placed[NAME_MAX + 1];
    buffer text = {0};
    int failed = 0;
    snprintf(partial, sizeof partial, ".actshare-partial-%d-%ld", (int)getpid(), (long)random());
    if (item->kind == ACTSHARE_ITEM_FILE && item->path) {
        const char *base = strrchr(item->path, '/');
        snprintf(name, sizeof name, "%s", base ? base + 1 : item->path);
        struct stat info;
        int source = open(item->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (source < 0 || fstat(source, &info) != 0) {
            failed = -1;
        } else if (S_ISDIR(info.st_mode)) {
            if (!realpath(item->path, c->root)) snprintf(c->root, sizeof c->root, "%s", item->path);
            failed = copy_tree(c, source, folder, partial, item->path, 0);
        } else if (S_ISREG(info.st_mode)) {
            fcntl(source, F_SETFL, 0);
            failed = copy_file(c, source, folder, partial, info.st_mode);
        } else {
            errno = ESPIPE;
            failed = -1;
        }
        if (source >= 0) close(source);
    } else if (item->kind == ACTSHARE_ITEM_URL && item->uri) {
        const char *after = strstr(item->uri, "://");
        name_from(after ? after + 3 : item->uri, "Link", ".desktop", name, sizeof name);
        for (char *at = name; *at; at++) if (*at == '?' || *at == '#') *at = ' ';
        buffer_append_format(&text, "[Desktop Entry]\nType=Link\nName=%.*s\nURL=%s\nIcon=text-html\n",
                             (int)(strlen(name) - strlen(".desktop")), name, item->uri);
        failed = write_new(folder, partial, text.bytes, text.length);
    } else if (item->kind == ACTSHARE_ITEM_TEXT && item->text) {
        name_from(item->text, "Text", ".txt", name, sizeof name);
        failed = write_new(folder, partial, item->text, strlen(item->text));
        if (!failed) progress(c, item->size);
    } else {
        c->session->set_error(c->session, "Save to… takes files, folders, links and text");
        return ACTSHARE_STATUS_BAD_INPUT;
    }
    buffer_free(&text);
    if (!failed) failed = place(folder, partial, name, placed, sizeof placed);
    if (failed) {
        int code = errno;
        remove_tree(folder, partial, 0);
        if (c->cancelled) return ACTSHARE_STATUS_CANCELLED;
        char message[PATH_MAX + 300];
        snprintf(message, sizeof message, code == ENOSPC ? "%s was not saved: the disk holding %s is full"
                                                         : "%s was not saved in %s: %s",
                 item->path ? item->path : name, destination, code == ESPIPE ? io_error(code) : strerror(code));
        c->session->set_error(c->session, message);
        return ACTSHARE_STATUS_FAILED;
    }
    char path[PATH_MAX + NAME_MAX + 2];
    snprintf(path, sizeof path, "%s/%s", destination, placed);
    c->session->return_item(c->session, ACTSHARE_ITEM_FILE, path, NULL);
    return ACTSHARE_STATUS_DONE;
}

int32_t save_perform(const actshare_request *request, actshare_session *session) {
    buffer destination = {0};
    const char *chosen = session->option(session, "folder");
    if (chosen && *chosen) buffer_append_string(&destination, chosen);
    else user_directory("XDG_DOWNLOAD_DIR", "Downloads", &destination);
    buffer_append(&destination, "", 1);
    int folder = open(destination.bytes, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder < 0) {
        char message[PATH_MAX + 200];
        snprintf(message, sizeof message, "cannot save in %s: %s", destination.bytes, strerror(errno));
        session->set_error(session, message);
        buffer_free(&destination);
        return ACTSHARE_STATUS_BAD_INPUT;
    }
    copying c = {.session = session};
    for (size_t i = 0; i < request->item_count; i++) {
        const actshare_item *item = &request->items[i];
        c.total += item->kind == ACTSHARE_ITEM_FILE && item->path ? size_of(item->path, 0) : item->size;
    }
    int32_t status = ACTSHARE_STATUS_DONE;
    for (size_t i = 0; i < request->item_count && status == ACTSHARE_STATUS_DONE; i++) {
        status = save_item(&c, &request->items[i], folder, destination.bytes);
    }
    close(folder);
    buffer_free(&destination);
    return status;
}
