/*
 * Hand Off: sends text and URL items to a paired device as user activities it can
 * continue (a URL in its browser, text onto its clipboard), through the local handoff
 * daemon's control socket (docs/PROTOCOL.md: op `send`). Files come later.
 */
#include "buffer.h"
#include "io.h"

#include <actshare/handoff_files.h>
#include <actshare/provider.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

ACTSHARE_EXPORT int32_t handoff_can_perform(const actshare_request *request);
ACTSHARE_EXPORT int32_t handoff_send(const actshare_request *request, actshare_session *session);

/* A JSON string literal for UTF-8 `text`. */
static void json_string(buffer *out, const char *text) {
    buffer_append_string(out, "\"");
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '"' || *p == '\\') {
            char escaped[2] = {'\\', (char)*p};
            buffer_append(out, escaped, 2);
        } else if (*p < 0x20) {
            buffer_append_format(out, "\\u%04x", *p);
        } else {
            buffer_append(out, p, 1);
        }
    }
    buffer_append_string(out, "\"");
}

/* The title: the first line of the text, at most 60 bytes, cut on a character boundary. */
static void title_of(buffer *out, const char *text) {
    size_t length = strcspn(text, "\r\n");
    if (length > 60) {
        length = 57;
        while (length > 0 && ((unsigned char)text[length] & 0xC0) == 0x80) length--;
    }
    buffer title = {0};
    buffer_append(&title, text, length);
    if (length < strcspn(text, "\r\n")) buffer_append_string(&title, "…");
    json_string(out, title.bytes ? title.bytes : "");
    buffer_free(&title);
}

static int is_json_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* Whether a device is paired: the daemon's list of them (a JSON array) is there and not
 * `[]`. Read from the file, so that it is known without a running daemon; nothing else
 * of the file is read. */
static int device_paired(void) {
    const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    char path[4096];
    if (state && state[0] == '/') {
        snprintf(path, sizeof path, "%s/" ACTSHARE_HANDOFF_FOLDER "/" ACTSHARE_HANDOFF_PAIRED_DEVICES, state);
    } else if (home && home[0] == '/') {
        snprintf(path, sizeof path, "%s/.local/state/" ACTSHARE_HANDOFF_FOLDER "/" ACTSHARE_HANDOFF_PAIRED_DEVICES, home);
    } else {
        return 0;
    }
    /* O_NONBLOCK: a FIFO put in its place must not hang the share sheet. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
    if (fd < 0) return 0;
    char head[64];
    ssize_t count = read(fd, head, sizeof head);
    close(fd);
    ssize_t i = 0;
    while (i < count && is_json_space(head[i])) i++;
    if (i >= count || head[i] != '[') return 0;
    for (i++; i < count && is_json_space(head[i]); i++) {}
    return i < count && head[i] != ']';
}

int32_t handoff_can_perform(const actshare_request *request) {
    (void)request;
    return device_paired();
}

static int control_socket(char *error, size_t size) {
    const char *runtime = getenv("XDG_RUNTIME_DIR");
    char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
    if (runtime && runtime[0] == '/') {
        snprintf(path, sizeof path, "%s/" ACTSHARE_HANDOFF_FOLDER "/" ACTSHARE_HANDOFF_CONTROL_SOCKET, runtime);
    } else {
        snprintf(path, sizeof path, ACTSHARE_HANDOFF_RUNTIME_FALLBACK "%u/" ACTSHARE_HANDOFF_FOLDER "/" ACTSHARE_HANDOFF_CONTROL_SOCKET,
                 (unsigned)getuid());
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    snprintf(address.sun_path, sizeof address.sun_path, "%s", path);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        snprintf(error, size, "no actshare daemon is running (%s: %s); start it with `actshare daemon`", path, strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    return fd;
}

/* Sends one request line and reads the answer line; 0 when it says "ok":true. */
static int call(int fd, const buffer *line, char *error, size_t size, int *bad_input) {
    if (write_all(fd, line->bytes, line->length) != 0) {
        snprintf(error, size, "the handoff daemon closed its socket");
        return -1;
    }
    buffer answer = {0};
    char chunk[4096];
    while (!answer.bytes || !memchr(answer.bytes, '\n', answer.length)) {
        ssize_t count = read(fd, chunk, sizeof chunk);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        buffer_append(&answer, chunk, (size_t)count);
    }
    int ok = answer.bytes && strstr(answer.bytes, "\"ok\":true") != NULL;
    if (!ok) {
        /* The daemon's message: "error":"…" (its JSON escapes are left as they are). */
        const char *message = answer.bytes ? strstr(answer.bytes, "\"error\":\"") : NULL;
        if (message) {
            message += 9;
            size_t length = 0;
            while (message[length] && !(message[length] == '"' && (length == 0 || message[length - 1] != '\\'))) length++;
            snprintf(error, size, "%.*s", (int)length, message);
        } else {
            snprintf(error, size, "the handoff daemon did not answer");
        }
        *bad_input = answer.bytes && strstr(answer.bytes, "\"exit_code\":2") != NULL;
    }
    buffer_free(&answer);
    return ok ? 0 : -1;
}

int32_t handoff_send(const actshare_request *request, actshare_session *session) {
    const char *device = session->option(session, "device");
    char error[1024];
    int sent = 0;
    for (size_t i = 0; i < request->item_count; i++) {
        const actshare_item *item = &request->items[i];
        if (item->kind != ACTSHARE_ITEM_URL && item->kind != ACTSHARE_ITEM_TEXT) continue;
        /* The receiver opens a URL in its browser: http and https only (the receiving
         * daemon refuses anything else too). */
        if (item->kind == ACTSHARE_ITEM_URL && strncasecmp(item->uri, "http://", 7) != 0 && strncasecmp(item->uri, "https://", 8) != 0) {
            snprintf(error, sizeof error, "only http and https URLs can be handed off, not %.40s…", item->uri);
            if (strlen(item->uri) <= 40) snprintf(error, sizeof error, "only http and https URLs can be handed off, not %s", item->uri);
            session->set_error(session, error);
            return ACTSHARE_STATUS_BAD_INPUT;
        }
        buffer line = {0};
        buffer_append_string(&line, "{\"op\":\"send\",");
        if (device && *device) {
            buffer_append_string(&line, "\"device\":");
            json_string(&line, device);
            buffer_append_string(&line, ",");
        }
        buffer_append_string(&line, "\"activity\":{\"type\":");
        if (item->kind == ACTSHARE_ITEM_URL) {
            json_string(&line, "org.actshare.handoff.url");
            buffer_append_string(&line, ",\"title\":");
            json_string(&line, item->uri);
            buffer_append_string(&line, ",\"webpage_url\":");
            json_string(&line, item->uri);
            buffer_append_string(&line, ",\"user_info\":{\"url\":");
            json_string(&line, item->uri);
        } else {
            json_string(&line, "org.actshare.handoff.text");
            buffer_append_string(&line, ",\"title\":");
            title_of(&line, item->text);
            buffer_append_string(&line, ",\"user_info\":{\"text\":");
            json_string(&line, item->text);
        }
        buffer_append_string(&line, "}}}\n");
        int fd = control_socket(error, sizeof error);
        int bad_input = 0;
        int result = fd < 0 ? -1 : call(fd, &line, error, sizeof error, &bad_input);
        if (fd >= 0) close(fd);
        buffer_free(&line);
        if (result != 0) {
            session->set_error(session, error);
            return bad_input ? ACTSHARE_STATUS_BAD_INPUT : ACTSHARE_STATUS_FAILED;
        }
        sent++;
    }
    if (sent == 0) {
        session->set_error(session, "only URLs and text can be handed off (files come later)");
        return ACTSHARE_STATUS_BAD_INPUT;
    }
    char said[256];
    snprintf(said, sizeof said, "handed off %d item%s%s%s", sent, sent == 1 ? "" : "s", device && *device ? " to " : "", device && *device ? device : "");
    session->return_item(session, ACTSHARE_ITEM_TEXT, said, NULL);
    return ACTSHARE_STATUS_DONE;
}
