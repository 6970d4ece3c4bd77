/*
 * Copy: puts the items on the clipboard with every target a desktop expects, so one
 * copy pastes into a file manager, a browser and a text field alike.
 *
 * X11: actshare-clipboard-server (server.c, beside this library) owns the selection and
 * keeps serving after actshare returns. Wayland: wl-copy, which offers one type per copy
 * (the most useful one is chosen). A terminal with no display: OSC 52, text only.
 */
#include "clipboard.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Most text a terminal takes in one OSC 52 sequence (xterm's and tmux's limits). */
#define OSC52_MAX_TEXT 74994

typedef struct buffer {
    char *bytes;
    size_t length, capacity;
} buffer;

static void append(buffer *b, const void *bytes, size_t length) {
    if (b->length + length + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 256;
        while (capacity < b->length + length + 1) capacity *= 2;
        char *grown = realloc(b->bytes, capacity);
        if (!grown) abort();
        b->bytes = grown;
        b->capacity = capacity;
    }
    memcpy(b->bytes + b->length, bytes, length);
    b->length += length;
    b->bytes[b->length] = '\0';
}

static void append_string(buffer *b, const char *string) { append(b, string, strlen(string)); }

typedef struct target {
    const char *name;
    buffer data;
    int is_file; /* data holds a path: the server reads the file (a large image, once) */
} target;

typedef struct targets {
    target list[24];
    size_t count;
} targets;

static buffer *add(targets *t, const char *name) {
    t->list[t->count].name = name;
    t->list[t->count].is_file = 0;
    memset(&t->list[t->count].data, 0, sizeof(buffer));
    return &t->list[t->count++].data;
}

static void free_targets(targets *t) {
    for (size_t i = 0; i < t->count; i++) free(t->list[i].data.bytes);
}

static int read_file(const char *path, buffer *out) {
    FILE *file = fopen(path, "rb");
    if (!file) return -1;
    char chunk[65536];
    size_t count;
    while ((count = fread(chunk, 1, sizeof chunk, file)) > 0) append(out, chunk, count);
    int failed = ferror(file);
    fclose(file);
    return failed ? -1 : 0;
}

/* UTF-8 to ISO-8859-1 for the STRING target; what Latin-1 lacks becomes '?'. */
static void append_latin1(buffer *out, const char *text) {
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        unsigned char c = *s;
        if (c < 0x80) {
            append(out, s, 1);
            s++;
        } else if ((c & 0xE0) == 0xC0 && (s[1] & 0xC0) == 0x80) {
            unsigned code = ((c & 0x1Fu) << 6) | (s[1] & 0x3Fu);
            unsigned char byte = code < 0x100 ? (unsigned char)code : '?';
            append(out, &byte, 1);
            s += 2;
        } else {
            append(out, "?", 1);
            s++;
            while ((*s & 0xC0) == 0x80) s++;
        }
    }
}

/* UTF-8 to UTF-16LE, for text/x-moz-url. */
static void append_utf16(buffer *out, const char *text) {
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        unsigned code;
        if (*s < 0x80) { code = *s++; }
        else if ((*s & 0xE0) == 0xC0) { code = ((*s & 0x1Fu) << 6) | (s[1] & 0x3Fu); s += 2; }
        else if ((*s & 0xF0) == 0xE0) { code = ((*s & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu); s += 3; }
        else { code = ((*s & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) | ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu); s += 4; }
        if (code >= 0x10000) {
            code -= 0x10000;
            unsigned char pair[4] = {(unsigned char)((0xD800 + (code >> 10)) & 0xFF), (unsigned char)((0xD800 + (code >> 10)) >> 8),
                                     (unsigned char)((0xDC00 + (code & 0x3FF)) & 0xFF), (unsigned char)((0xDC00 + (code & 0x3FF)) >> 8)};
            append(out, pair, 4);
        } else {
            unsigned char unit[2] = {(unsigned char)(code & 0xFF), (unsigned char)(code >> 8)};
            append(out, unit, 2);
        }
    }
}

/* Every target for the items, in the order a requestor should prefer them. */
static void build_targets(const actshare_request *request, targets *t, buffer *text, const char **image_type) {
    buffer uris = {0}, copied = {0}, moz = {0};
    size_t files = 0, urls = 0;
    *image_type = NULL;
    for (size_t i = 0; i < request->item_count; i++) {
        const actshare_item *item = &request->items[i];
        const char *as_text = item->kind == ACTSHARE_ITEM_FILE ? item->path : item->kind == ACTSHARE_ITEM_URL ? item->uri : item->text;
        if (as_text) {
            if (text->length) append_string(text, "\n");
            append_string(text, as_text);
        }
        if (item->kind == ACTSHARE_ITEM_FILE || item->kind == ACTSHARE_ITEM_URL) {
            append_string(&uris, item->uri);
            append_string(&uris, "\r\n");
        }
        if (item->kind == ACTSHARE_ITEM_FILE) {
            append_string(&copied, "\n");
            append_string(&copied, item->uri);
            files++;
            if (!*image_type && strncmp(item->content_type, "image/", 6) == 0 && request->item_count == 1) *image_type = item->content_type;
        }
        if (item->kind == ACTSHARE_ITEM_URL) {
            if (moz.length) append_utf16(&moz, "\n");
            append_utf16(&moz, item->uri);
            append_utf16(&moz, "\n");
            append_utf16(&moz, item->uri);
            urls++;
        }
        if (item->kind == ACTSHARE_ITEM_DATA && request->item_count == 1) {
            append(add(t, item->content_type), item->data, item->data_length);
        }
    }
    if (uris.length) append(add(t, "text/uri-list"), uris.bytes, uris.length);
    if (files) {
        /* Nautilus and Caja: "copy", then one URI per line, no final newline. */
        buffer *gnome = add(t, "x-special/gnome-copied-files");
        append_string(gnome, "copy");
        append(gnome, copied.bytes, copied.length);
        buffer *mate = add(t, "x-special/mate-copied-files");
        append(mate, gnome->bytes, gnome->length);
        append_string(add(t, "application/x-kde-cutselection"), "0");
    }
    if (urls) append(add(t, "text/x-moz-url"), moz.bytes, moz.length);
    if (*image_type) {
        /* The image's bytes are read by the X11 server itself (one copy, not three). */
        buffer *image = add(t, *image_type);
        append_string(image, request->items[0].path);
        t->list[t->count - 1].is_file = 1;
        /* PNG is what every application pastes; other formats are offered as they are. */
        if (strcmp(*image_type, "image/png") != 0) *image_type = NULL;
    }
    if (text->length) {
        append(add(t, "UTF8_STRING"), text->bytes, text->length);
        append(add(t, "text/plain;charset=utf-8"), text->bytes, text->length);
        append(add(t, "text/plain"), text->bytes, text->length);
        append_latin1(add(t, "STRING"), text->bytes);
    }
    free(uris.bytes);
    free(copied.bytes);
    free(moz.bytes);
}

static const char *directory_of_this_library(char *out, size_t size) {
    Dl_info info;
    if (!dladdr((void *)clipboard_copy, &info) || !info.dli_fname) return NULL;
    snprintf(out, size, "%s", info.dli_fname);
    char *slash = strrchr(out, '/');
    if (!slash) return NULL;
    *slash = '\0';
    return out;
}

static void put_u32(buffer *b, uint32_t value) {
    unsigned char bytes[4] = {value & 0xFF, (value >> 8) & 0xFF, (value >> 16) & 0xFF, value >> 24};
    append(b, bytes, 4);
}

/* X11: hand the targets to actshare-clipboard-server and wait until it owns the selection. */
static int copy_x11(const targets *t, unsigned selections, unsigned lifetime, actshare_session *session) {
    char directory[4096], server[4200];
    if (!directory_of_this_library(directory, sizeof directory)) {
        session->set_error(session, "cannot find actshare-clipboard-server");
        return -1;
    }
    snprintf(server, sizeof server, "%s/actshare-clipboard-server", directory);
    int input[2], ready[2];
    if (pipe2(input, O_CLOEXEC) != 0 || pipe2(ready, O_CLOEXEC) != 0) {
        session->set_error(session, "cannot make a pipe");
        return -1;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, input[0], 0);
    posix_spawn_file_actions_adddup2(&actions, ready[1], 3);
    /* It outlives actshare: nothing else actshare has open may stay open in it. */
    posix_spawn_file_actions_addclosefrom_np(&actions, 4);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    /* A session of its own: it outlives actshare and its terminal. */
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID);
    char *argv[] = {server, NULL};
    pid_t pid;
    int spawned = posix_spawn(&pid, server, &actions, &attributes, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(input[0]);
    close(ready[1]);
    if (spawned != 0) {
        char message[4400];
        snprintf(message, sizeof message, "cannot start %s: %s", server, strerror(spawned));
        session->set_error(session, message);
        close(input[1]);
        close(ready[0]);
        return -1;
    }
    buffer payload = {0};
    put_u32(&payload, selections);
    put_u32(&payload, lifetime);
    put_u32(&payload, (uint32_t)t->count);
    for (size_t i = 0; i < t->count; i++) {
        put_u32(&payload, (uint32_t)strlen(t->list[i].name));
        append_string(&payload, t->list[i].name);
        unsigned char source = (unsigned char)t->list[i].is_file;
        append(&payload, &source, 1);
        put_u32(&payload, (uint32_t)t->list[i].data.length);
        append(&payload, t->list[i].data.bytes, t->list[i].data.length);
    }
    size_t offset = 0;
    while (offset < payload.length) {
        ssize_t count = write(input[1], payload.bytes + offset, payload.length - offset);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        offset += (size_t)count;
    }
    free(payload.bytes);
    close(input[1]);

    char line[600] = {0};
    size_t used = 0;
    while (used < sizeof line - 1) {
        ssize_t count = read(ready[0], line + used, sizeof line - 1 - used);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        used += (size_t)count;
        if (memchr(line, '\n', used)) break;
    }
    close(ready[0]);
    if (strncmp(line, "ok\n", 3) == 0) return 0;
    int status = 0;
    waitpid(pid, &status, 0);
    char *newline = strchr(line, '\n');
    if (newline) *newline = '\0';
    char message[700];
    snprintf(message, sizeof message, "X11 clipboard: %s", strncmp(line, "error: ", 7) == 0 ? line + 7 : "the clipboard server stopped");
    session->set_error(session, message);
    return -1;
}

/* Wayland: wl-copy offers one type per copy, so the most useful one is chosen. */
static int copy_wayland(const targets *t, const char *image_type, unsigned selections, actshare_session *session) {
    const target *best = NULL;
    const char *preferred[] = {image_type, "text/uri-list", "text/plain;charset=utf-8"};
    for (size_t p = 0; p < 3 && !best; p++) {
        for (size_t i = 0; preferred[p] && i < t->count; i++) {
            if (strcmp(t->list[i].name, preferred[p]) == 0) best = &t->list[i];
        }
    }
    if (!best) best = &t->list[0];
    buffer file = {0};
    const buffer *data = &best->data;
    if (best->is_file) {
        if (read_file(best->data.bytes, &file) != 0) {
            session->set_error(session, "cannot read the image to copy");
            return -1;
        }
        data = &file;
    }
    int input[2];
    if (pipe2(input, O_CLOEXEC) != 0) return -1;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, input[0], 0);
    /* wl-copy stays in the background to serve: it must not hold actshare's output open. */
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    char *argv[] = {"wl-copy", "--type", (char *)best->name, selections == 2 ? "--primary" : NULL, NULL};
    pid_t pid;
    int spawned = posix_spawnp(&pid, "wl-copy", &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(input[0]);
    if (spawned != 0) {
        close(input[1]);
        free(file.bytes);
        session->set_error(session, "Wayland clipboard: wl-copy (wl-clipboard) is not installed");
        return -1;
    }
    size_t offset = 0;
    while (offset < data->length) {
        ssize_t count = write(input[1], data->bytes + offset, data->length - offset);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        offset += (size_t)count;
    }
    close(input[1]);
    free(file.bytes);
    int status = 0;
    waitpid(pid, &status, 0); /* wl-copy returns once the compositor has the selection */
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        session->set_error(session, "Wayland clipboard: wl-copy failed");
        return -1;
    }
    return 0;
}

/* OSC 52: the terminal sets its clipboard from an escape sequence. Text only. */
static int copy_osc52(const buffer *text, unsigned selections, actshare_session *session) {
    if (text->length == 0) {
        session->set_error(session, "OSC 52 carries text only, and these items have none");
        return -1;
    }
    if (text->length > OSC52_MAX_TEXT) {
        char message[200];
        snprintf(message, sizeof message, "OSC 52: %zu bytes of text is more than a terminal takes (%d)", text->length, OSC52_MAX_TEXT);
        session->set_error(session, message);
        return -1;
    }
    int tty = open("/dev/tty", O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (tty < 0) {
        session->set_error(session, "OSC 52: there is no terminal");
        return -1;
    }
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    buffer sequence = {0};
    append_string(&sequence, "\033]52;");
    append_string(&sequence, selections == 3 ? "cp" : selections == 2 ? "p" : "c");
    append_string(&sequence, ";");
    const unsigned char *s = (const unsigned char *)text->bytes;
    for (size_t i = 0; i < text->length; i += 3) {
        unsigned value = (unsigned)s[i] << 16 | (i + 1 < text->length ? (unsigned)s[i + 1] << 8 : 0) | (i + 2 < text->length ? s[i + 2] : 0);
        char quad[4] = {alphabet[(value >> 18) & 63], alphabet[(value >> 12) & 63],
                        i + 1 < text->length ? alphabet[(value >> 6) & 63] : '=', i + 2 < text->length ? alphabet[value & 63] : '='};
        append(&sequence, quad, 4);
    }
    append_string(&sequence, "\a");
    ssize_t written = write(tty, sequence.bytes, sequence.length);
    close(tty);
    free(sequence.bytes);
    if (written != (ssize_t)sequence.length) {
        session->set_error(session, "OSC 52: cannot write to the terminal");
        return -1;
    }
    return 0;
}

static int has_program(const char *name) {
    const char *path = getenv("PATH");
    if (!path) return 0;
    char candidate[4096];
    for (const char *start = path; *start;) {
        const char *end = strchr(start, ':');
        size_t length = end ? (size_t)(end - start) : strlen(start);
        snprintf(candidate, sizeof candidate, "%.*s/%s", (int)length, start, name);
        if (access(candidate, X_OK) == 0) return 1;
        if (!end) break;
        start = end + 1;
    }
    return 0;
}

int32_t clipboard_copy(const actshare_request *request, actshare_session *session) {
    const char *backend = session->option(session, "backend");
    const char *selection = session->option(session, "selection");
    const char *lifetime_text = session->option(session, "lifetime");
    if (!backend) backend = "auto";
    unsigned selections = selection && strcmp(selection, "both") == 0 ? 3 : selection && strcmp(selection, "primary") == 0 ? 2 : 1;
    long lifetime = lifetime_text ? strtol(lifetime_text, NULL, 10) : 0;

    targets t = {0};
    buffer text = {0};
    const char *image_type = NULL;
    build_targets(request, &t, &text, &image_type);
    if (t.count == 0) {
        session->set_error(session, "nothing to copy");
        free_targets(&t);
        free(text.bytes);
        return ACTSHARE_STATUS_FAILED;
    }

    if (strcmp(backend, "auto") == 0) {
        const char *wayland = getenv("WAYLAND_DISPLAY");
        const char *display = getenv("DISPLAY");
        int tty = open("/dev/tty", O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (tty >= 0) close(tty);
        if (wayland && *wayland && has_program("wl-copy")) backend = "wayland";
        else if (display && *display) backend = "x11";
        else if (tty >= 0) backend = "osc52";
        else {
            session->set_error(session, "no clipboard to copy to: no X display (DISPLAY is not set), no Wayland "
                                        "compositor with wl-copy (WAYLAND_DISPLAY), and no terminal for OSC 52");
            free_targets(&t);
            free(text.bytes);
            return ACTSHARE_STATUS_FAILED;
        }
    }
    int result;
    if (strcmp(backend, "x11") == 0) result = copy_x11(&t, selections, lifetime > 0 ? (unsigned)lifetime : 0, session);
    else if (strcmp(backend, "wayland") == 0) result = copy_wayland(&t, image_type, selections, session);
    else result = copy_osc52(&text, selections, session);
    free_targets(&t);
    free(text.bytes);
    return result == 0 ? ACTSHARE_STATUS_DONE : ACTSHARE_STATUS_FAILED;
}
