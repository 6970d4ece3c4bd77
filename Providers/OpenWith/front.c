/*
 * Open With: the installed applications that open the items, each a target (Apps/ finds
 * them through GIO and launches them).
 *
 * This is the library actshare loads for can-perform at every `actshare list`: it links
 * libc alone and answers from a cache file of what GIO found before, for the same kinds
 * of items, while nothing GIO reads has changed: the applications folders of
 * $XDG_DATA_HOME and $XDG_DATA_DIRS (a desktop file added or removed, mimeinfo.cache,
 * their mimeapps.list and defaults.list), the mimeapps.list files of $XDG_CONFIG_HOME and
 * $XDG_CONFIG_DIRS (and their desktop's own), the desktop (XDG_CURRENT_DESKTOP, which
 * OnlyShowIn reads) and the language (the names shown). Otherwise, and to perform, it
 * opens the GIO part beside it, which writes the cache anew. What is read from the cache
 * is checked by actshare as any provider's targets are; perform asks GIO again.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "Apps/open-with.h"
#include "sibling.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

ACTSHARE_EXPORT int32_t open_with_can_perform(const actshare_request *request);
ACTSHARE_EXPORT int32_t open_with_perform(const actshare_request *request, actshare_session *session);

/* The largest cache file read: 64 targets of long names. */
#define CACHE_LIMIT (64u << 10)

/* FNV-1a, 64 bits: a file name for what the cache depends on, not a secret. */
static void mix(uint64_t *hash, const void *bytes, size_t length) {
    const unsigned char *at = bytes;
    for (size_t i = 0; i < length; i++) {
        *hash ^= at[i];
        *hash *= 0x100000001b3ULL;
    }
    *hash ^= 0xFF; /* a separator, so that "ab"+"c" and "a"+"bc" differ */
    *hash *= 0x100000001b3ULL;
}

static void mix_string(uint64_t *hash, const char *text) { mix(hash, text ? text : "", text ? strlen(text) + 1 : 0); }

/* A file's identity and change time, or that it is not there. */
static void mix_file(uint64_t *hash, const char *folder, const char *name) {
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", folder, name) >= sizeof path) return;
    struct stat info;
    int64_t fields[5] = {0};
    if (stat(path, &info) == 0) {
        fields[0] = (int64_t)info.st_ino;
        fields[1] = (int64_t)info.st_mtim.tv_sec;
        fields[2] = (int64_t)info.st_mtim.tv_nsec;
        fields[3] = (int64_t)info.st_size;
        fields[4] = (int64_t)info.st_dev;
    }
    mix(hash, fields, sizeof fields);
}

/* `name` of each folder of a colon-separated list (or of `fallback` when it is unset). */
static void mix_each(uint64_t *hash, const char *list, const char *fallback, const char *suffix, const char *const *names) {
    const char *at = list && *list ? list : fallback;
    while (at && *at) {
        const char *end = strchr(at, ':');
        size_t length = end ? (size_t)(end - at) : strlen(at);
        if (length > 0 && *at == '/' && length < 2048) {
            char folder[2200];
            snprintf(folder, sizeof folder, "%.*s%s", (int)length, at, suffix);
            for (size_t i = 0; names[i]; i++) mix_file(hash, folder, names[i]);
        }
        at = end ? end + 1 : NULL;
    }
}

/* What GIO's answer depends on, hashed. */
static uint64_t state_hash(void) {
    uint64_t hash = 0xcbf29ce484222325ULL;
    const char *home = getenv("HOME");
    char data_home[4096], config_home[4096];
    const char *data = getenv("XDG_DATA_HOME"), *config = getenv("XDG_CONFIG_HOME");
    snprintf(data_home, sizeof data_home, "%s", data && *data == '/' ? data : "");
    if (!*data_home && home) snprintf(data_home, sizeof data_home, "%s/.local/share", home);
    snprintf(config_home, sizeof config_home, "%s", config && *config == '/' ? config : "");
    if (!*config_home && home) snprintf(config_home, sizeof config_home, "%s/.config", home);
    static const char *const applications[] = {".", "mimeinfo.cache", "mimeapps.list", "defaults.list", NULL};
    mix_each(&hash, data_home, NULL, "/applications", applications);
    mix_each(&hash, getenv("XDG_DATA_DIRS"), "/usr/local/share/:/usr/share/", "/applications", applications);
    /* mimeapps.list and DESKTOP-mimeapps.list for each desktop XDG_CURRENT_DESKTOP names. */
    const char *desktops = getenv("XDG_CURRENT_DESKTOP");
    char names[8][80];
    const char *lists[10] = {"mimeapps.list"};
    size_t count = 1;
    for (const char *at = desktops; at && *at && count < 9;) {
        const char *end = strchr(at, ':');
        size_t length = end ? (size_t)(end - at) : strlen(at);
        if (length > 0 && length < 60) {
            char *name = names[count - 1];
            for (size_t i = 0; i < length; i++) name[i] = (char)((at[i] >= 'A' && at[i] <= 'Z') ? at[i] + 32 : at[i]);
            snprintf(name + length, 80 - length, "-mimeapps.list");
            lists[count++] = name;
        }
        at = end ? end + 1 : NULL;
    }
    lists[count] = NULL;
    mix_each(&hash, config_home, NULL, "", lists);
    mix_each(&hash, getenv("XDG_CONFIG_DIRS"), "/etc/xdg", "", lists);
    const char *environment[] = {"XDG_CURRENT_DESKTOP", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", NULL};
    for (size_t i = 0; environment[i]; i++) mix_string(&hash, getenv(environment[i]));
    return hash;
}

/* What the answer is asked for: each item's kind and content type, in order. */
static uint64_t request_hash(const actshare_request *request) {
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < request->item_count; i++) {
        const actshare_item *item = &request->items[i];
        mix(&hash, &item->kind, sizeof item->kind);
        mix_string(&hash, item->kind == ACTSHARE_ITEM_TEXT ? "text/plain" : item->content_type);
    }
    return hash;
}

/* The cache file for this request, into `path`; 0, or -1 without a cache folder. */
static int cache_path(const actshare_request *request, char *path, size_t size) {
    const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int length;
    if (cache && *cache == '/') {
        length = snprintf(path, size, "%s/actshare/open-with/%016llx-%016llx", cache, (unsigned long long)state_hash(),
                          (unsigned long long)request_hash(request));
    } else if (home && *home == '/') {
        length = snprintf(path, size, "%s/.cache/actshare/open-with/%016llx-%016llx", home, (unsigned long long)state_hash(),
                          (unsigned long long)request_hash(request));
    } else {
        return -1;
    }
    return length > 0 && (size_t)length < size ? 0 : -1;
}

/* Answers from the cache file at `path`: 1 or 0 as can-perform would, -1 when there is no
 * usable answer there. Not followed if it is a link; at most CACHE_LIMIT bytes. */
static int answer_from_cache(const actshare_request *request, const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return -1;
    struct stat info;
    static char text[CACHE_LIMIT + 1];
    ssize_t length = -1;
    if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size <= (off_t)CACHE_LIMIT) {
        length = read(fd, text, CACHE_LIMIT);
    }
    close(fd);
    if (length <= 0) return -1;
    text[length] = '\0';
    size_t header = strlen(OPEN_WITH_CACHE_FORMAT "\n");
    if ((size_t)length < header || strncmp(text, OPEN_WITH_CACHE_FORMAT "\n", header) != 0 || text[length - 1] != '\n') return -1;
    char *line = text + header;
    if (strcmp(line, "none\n") == 0) {
        actshare_decline(request, request->item_count > 1 ? "No installed application opens all of these items at once"
                                                          : "No installed application opens this item");
        return 0;
    }
    int offered = 0;
    while (*line) {
        char *end = strchr(line, '\n');
        *end = '\0';
        char *title = strchr(line, '\t'), *image = title ? strchr(title + 1, '\t') : NULL;
        if (!title || !image) return offered ? 1 : -1;
        *title++ = '\0';
        *image++ = '\0';
        actshare_target target = {sizeof target, ACTSHARE_TARGET_APP, line, title, NULL, *image ? image : NULL};
        actshare_add_target(request, &target);
        offered = 1;
        line = end + 1;
    }
    return offered ? 1 : -1;
}

int32_t open_with_can_perform(const actshare_request *request) {
    char path[4096];
    int cached = cache_path(request, path, sizeof path);
    if (cached == 0) {
        int answer = answer_from_cache(request, path);
        if (answer >= 0) return answer;
    }
    char error[512];
    int32_t (*ask)(const actshare_request *, const char *) = (int32_t (*)(const actshare_request *, const char *))sibling_symbol(
        (const void *)open_with_can_perform, OPEN_WITH_APPS_LIBRARY, "open_with_apps_can_perform", error, sizeof error);
    if (!ask) {
        actshare_decline(request, error);
        return 0;
    }
    return ask(request, cached == 0 ? path : NULL);
}

int32_t open_with_perform(const actshare_request *request, actshare_session *session) {
    char error[512];
    int32_t (*launch)(const actshare_request *, actshare_session *) = (int32_t (*)(const actshare_request *, actshare_session *))sibling_symbol(
        (const void *)open_with_can_perform, OPEN_WITH_APPS_LIBRARY, "open_with_apps_perform", error, sizeof error);
    if (!launch) {
        session->set_error(session, error);
        return ACTSHARE_STATUS_FAILED;
    }
    return launch(request, session);
}
