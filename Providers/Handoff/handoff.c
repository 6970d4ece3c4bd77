/*
 * Hand Off: sends the items to a paired device through the local handoff daemon's control
 * socket (docs/PROTOCOL.md): URLs and text as user activities it can continue (op `send`:
 * a URL in its browser, text onto its clipboard), files and folders into its download
 * folder (op `send-files`, whose progress events drive the session's progress, and whose
 * connection, closed, cancels). With the option `clipboard`, the items go onto the
 * device's clipboard instead (op `clipboard-push` with the text or the files: offered
 * there, fetched when pasted). "Quick Share to a Phone" asks the daemon for a QR code
 * (op `send-qr`, in the background) and shows it through Show QR Code's library beside
 * this one: the phone that scans it gets the items. Requests are built and answers read
 * with json-c.
 */
#include "buffer.h"
#include "io.h"
#include "sibling.h"

#include <actshare/handoff_protocol.h>
#include <actshare/provider.h>
#include <json.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

ACTSHARE_EXPORT int32_t handoff_can_perform(const actshare_request *request);
ACTSHARE_EXPORT int32_t handoff_clipboard_can_perform(const actshare_request *request);
ACTSHARE_EXPORT int32_t handoff_send(const actshare_request *request, actshare_session *session);
ACTSHARE_EXPORT int32_t handoff_quickshare_can_perform(const actshare_request *request);

/* The longest answer line read from the daemon (its own limit for control lines). */
#define CONTROL_LINE_LIMIT (2u << 20)

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

/* A connection to the daemon's control socket, with the lines it answers. */
typedef struct control {
    int fd;
    buffer pending;
    /* When an answer is given up on (CLOCK_MONOTONIC, ms); 0: waited for as long as it
     * takes (a transfer's answer comes when it is done). */
    int64_t deadline;
} control;

static int64_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static int control_open(control *c, char *error, size_t size) {
    memset(c, 0, sizeof *c);
    /* Sandboxed, the daemon is reached only through the connection actshare opened for
     * this provider (ACTSHARE_HANDOFF_FD), restricted to the shared items; taken once. */
    const char *granted = getenv("ACTSHARE_HANDOFF_FD");
    if (granted) {
        char *end = NULL;
        long fd = strtol(granted, &end, 10);
        unsetenv("ACTSHARE_HANDOFF_FD");
        if (end && *end == '\0' && fd > 2 && fd < 1024 && fcntl((int)fd, F_GETFD) >= 0) {
            c->fd = (int)fd;
            return 0;
        }
    }
    const char *runtime = getenv("XDG_RUNTIME_DIR");
    char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
    if (runtime && runtime[0] == '/') {
        snprintf(path, sizeof path, "%s/" ACTSHARE_HANDOFF_FOLDER "/" ACTSHARE_HANDOFF_CONTROL_SOCKET, runtime);
    } else {
        snprintf(path, sizeof path, ACTSHARE_HANDOFF_RUNTIME_FALLBACK "%u/" ACTSHARE_HANDOFF_FOLDER "/" ACTSHARE_HANDOFF_CONTROL_SOCKET,
                 (unsigned)getuid());
    }
    c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    snprintf(address.sun_path, sizeof address.sun_path, "%s", path);
    if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&address, sizeof address) != 0) {
        snprintf(error, size, "no actshare daemon is running (%s: %s); start it with `actshare daemon`", path, strerror(errno));
        if (c->fd >= 0) close(c->fd);
        c->fd = -1;
        return -1;
    }
    return 0;
}

static void control_close(control *c) {
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
    buffer_free(&c->pending);
}

/* Sends a request (one JSON object on a line): 0, or -1. */
static int control_send(control *c, json_object *request) {
    const char *text = json_object_to_json_string_ext(request, JSON_C_TO_STRING_PLAIN);
    buffer line = {0};
    buffer_append_string(&line, text);
    buffer_append_string(&line, "\n");
    int result = write_all(c->fd, line.bytes, line.length);
    buffer_free(&line);
    return result;
}

/* The next answer line, parsed (the caller puts it); NULL when the daemon closed the
 * socket, sent a line over the limit or not JSON, or, with a session, when the user
 * cancelled (`*cancelled` is set) while waiting. */
static json_object *control_receive(control *c, actshare_session *session, int *cancelled) {
    for (;;) {
        char *newline = c->pending.bytes ? memchr(c->pending.bytes, '\n', c->pending.length) : NULL;
        if (newline) {
            size_t length = (size_t)(newline - c->pending.bytes);
            json_tokener *tokener = json_tokener_new();
            json_object *answer = json_tokener_parse_ex(tokener, c->pending.bytes, (int)length);
            json_tokener_free(tokener);
            memmove(c->pending.bytes, newline + 1, c->pending.length - length - 1);
            c->pending.length -= length + 1;
            return answer;
        }
        if (c->pending.length > CONTROL_LINE_LIMIT) return NULL;
        /* Woken at least every 250 ms (the daemon's progress events), to see a cancel. */
        struct pollfd readable = {.fd = c->fd, .events = POLLIN};
        int ready = poll(&readable, 1, 250);
        if (session && session->is_cancelled(session)) {
            *cancelled = 1;
            return NULL;
        }
        if (c->deadline && now_ms() > c->deadline) return NULL;
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue;
        char chunk[65536];
        ssize_t count = read(c->fd, chunk, sizeof chunk);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return NULL;
        buffer_append(&c->pending, chunk, (size_t)count);
    }
}

static const char *string_field(json_object *object, const char *key) {
    json_object *value;
    return json_object_object_get_ex(object, key, &value) && json_object_is_type(value, json_type_string) ? json_object_get_string(value) : NULL;
}

static int64_t number_field(json_object *object, const char *key) {
    json_object *value;
    return json_object_object_get_ex(object, key, &value) ? json_object_get_int64(value) : 0;
}

static int answer_ok(json_object *answer) {
    json_object *ok;
    return answer && json_object_object_get_ex(answer, "ok", &ok) && json_object_get_boolean(ok);
}

/* The array `key` of the daemon's answer to {"op": OP, "timeout": 0} on `c`, or NULL;
 * `*answer` holds it (put by the caller). */
static json_object *known(control *c, const char *op, const char *key, json_object **answer) {
    json_object *request = json_object_new_object(), *list;
    json_object_object_add(request, "op", json_object_new_string(op));
    json_object_object_add(request, "timeout", json_object_new_double(0));
    int cancelled = 0;
    *answer = control_send(c, request) == 0 ? control_receive(c, NULL, &cancelled) : NULL;
    json_object_put(request);
    return answer_ok(*answer) && json_object_object_get_ex(*answer, key, &list) && json_object_is_type(list, json_type_array) ? list : NULL;
}

/* Offers the devices Hand Off reaches as targets: the paired ones as the daemon last found
 * them (those that answered first; none is asked now, so a list does not wait on the
 * network), then the LocalSend devices it has heard, by name. How many it offered. Not
 * when sandboxed: the connection granted then is the perform's. */
static int offer_devices(const actshare_request *request, int with_localsend) {
    if (getenv("ACTSHARE_HANDOFF_FD")) return 0;
    /* One connection for both questions, answered within a second. */
    char error[512];
    control c;
    if (control_open(&c, error, sizeof error) != 0) return 0;
    c.deadline = now_ms() + 1000;
    int offered = 0;
    json_object *answer, *devices = known(&c, "devices", "devices", &answer);
    /* Those that answered, those not asked yet, those that did not answer. */
    for (int pass = 0; pass < 3 && devices; pass++) {
        for (size_t i = 0; i < json_object_array_length(devices); i++) {
            json_object *device = json_object_array_get_idx(devices, i), *reachable;
            int said = json_object_object_get_ex(device, "reachable", &reachable) && json_object_is_type(reachable, json_type_boolean);
            int group = !said ? 1 : json_object_get_boolean(reachable) ? 0 : 2;
            const char *id = string_field(device, "id"), *name = string_field(device, "name");
            if (!id || !name || group != pass) continue;
            actshare_target target = {sizeof target, ACTSHARE_TARGET_DEVICE, id, name,
                                      group == 2 ? "not reachable now: the files wait until it is" : NULL, "computer"};
            offered += actshare_add_target(request, &target) == 0;
        }
    }
    json_object_put(answer);
    json_object *nearby = with_localsend ? known(&c, "discover", "nearby", &answer) : (answer = NULL);
    for (size_t i = 0; nearby && i < json_object_array_length(nearby); i++) {
        json_object *device = json_object_array_get_idx(nearby, i);
        const char *protocol = string_field(device, "protocol"), *name = string_field(device, "name"), *kind = string_field(device, "kind");
        if (!protocol || !name) continue;
        int localsend = strcmp(protocol, "localsend") == 0, quickshare = strcmp(protocol, "quickshare") == 0;
        if (!localsend && !quickshare) continue;
        /* A phone showing its Quick Share (its kind as it says it: phone, tablet…). */
        int computer = localsend ? !(kind && strcmp(kind, "mobile") == 0) : kind && strcmp(kind, "laptop") == 0;
        actshare_target target = {sizeof target, ACTSHARE_TARGET_DEVICE, name, name, localsend ? "LocalSend" : "Quick Share",
                                  computer ? "computer" : "phone"};
        offered += actshare_add_target(request, &target) == 0;
    }
    json_object_put(answer);
    control_close(&c);
    return offered;
}

int32_t handoff_can_perform(const actshare_request *request) {
    /* Without the daemon, a device paired before is still offered: the send waits for it. */
    if (offer_devices(request, 1) > 0 || device_paired()) return 1;
    actshare_decline(request, "No device is paired: pair one first (actshare handoff pair)");
    return 0;
}

/* Copy to Device: onto a paired device's clipboard (a LocalSend device has none). */
int32_t handoff_clipboard_can_perform(const actshare_request *request) {
    if (offer_devices(request, 0) > 0 || device_paired()) return 1;
    actshare_decline(request, "No device is paired: pair one first (actshare handoff pair)");
    return 0;
}

/* Says the daemon's failure on the session; the status it means. */
static int32_t failed(actshare_session *session, json_object *answer, const char *otherwise) {
    const char *message = answer ? string_field(answer, "error") : NULL;
    session->set_error(session, message ? message : otherwise);
    int64_t code = answer ? number_field(answer, "exit_code") : 0;
    return code == ACTSHARE_HANDOFF_BAD_INPUT ? ACTSHARE_STATUS_BAD_INPUT : code == ACTSHARE_HANDOFF_CANCELLED ? ACTSHARE_STATUS_CANCELLED : ACTSHARE_STATUS_FAILED;
}

/* The title of handed-off text: its first line, at most 60 bytes, cut between characters. */
static json_object *title_of(const char *text) {
    size_t line = strcspn(text, "\r\n"), length = line;
    if (length > 60) {
        length = 57;
        while (length > 0 && ((unsigned char)text[length] & 0xC0) == 0x80) length--;
    }
    buffer title = {0};
    buffer_append(&title, text, length);
    if (length < line) buffer_append_string(&title, "…");
    json_object *value = json_object_new_string_len(title.bytes ? title.bytes : "", (int)title.length);
    buffer_free(&title);
    return value;
}

/* The `send` request for a URL or text item. */
static json_object *activity_request(const actshare_item *item, const char *device) {
    json_object *activity = json_object_new_object(), *info = json_object_new_object();
    if (item->kind == ACTSHARE_ITEM_URL) {
        json_object_object_add(activity, "type", json_object_new_string("org.actshare.handoff.url"));
        json_object_object_add(activity, "title", json_object_new_string(item->uri));
        json_object_object_add(activity, "webpage_url", json_object_new_string(item->uri));
        json_object_object_add(info, "url", json_object_new_string(item->uri));
    } else {
        json_object_object_add(activity, "type", json_object_new_string("org.actshare.handoff.text"));
        json_object_object_add(activity, "title", title_of(item->text));
        json_object_object_add(info, "text", json_object_new_string(item->text));
    }
    json_object_object_add(activity, "user_info", info);
    json_object *request = json_object_new_object();
    json_object_object_add(request, "op", json_object_new_string("send"));
    if (device && *device) json_object_object_add(request, "device", json_object_new_string(device));
    json_object_object_add(request, "activity", activity);
    return request;
}

/* The name of the device an answer says it went to, into `name` (of `size` bytes). */
static void answered_device_name(json_object *answer, char *name, size_t size) {
    json_object *device, *named;
    if (json_object_object_get_ex(answer, "device", &device) && json_object_object_get_ex(device, "name", &named)
        && json_object_is_type(named, json_type_string)) {
        snprintf(name, size, "%s", json_object_get_string(named));
    }
}

/* One request, one answer (URLs and text); `name` gets the device's name. */
static int32_t send_activity(const actshare_item *item, const char *device, actshare_session *session, char *name,
                             size_t size) {
    char error[1024];
    control c;
    if (control_open(&c, error, sizeof error) != 0) {
        session->set_error(session, error);
        return ACTSHARE_STATUS_FAILED;
    }
    json_object *request = activity_request(item, device);
    int cancelled = 0;
    json_object *answer = control_send(&c, request) == 0 ? control_receive(&c, NULL, &cancelled) : NULL;
    /* A phone's PIN comes first (Quick Share): the answer is the line after it. */
    while (answer && string_field(answer, "event")) {
        json_object_put(answer);
        answer = control_receive(&c, NULL, &cancelled);
    }
    int32_t status = answer_ok(answer) ? ACTSHARE_STATUS_DONE : failed(session, answer, "the handoff daemon did not answer");
    if (status == ACTSHARE_STATUS_DONE) answered_device_name(answer, name, size);
    json_object_put(request);
    json_object_put(answer);
    control_close(&c);
    return status;
}

/* A request's `devices`: the one named (by id or name), or none for every paired one. */
static void add_device(json_object *request, const char *device) {
    if (!device || !*device) return;
    json_object *devices = json_object_new_array();
    json_object_array_add(devices, json_object_new_string(device));
    json_object_object_add(request, "devices", devices);
}

/* The files and folders, all in one `send-files`; its progress events become the
 * session's progress, and a cancel closes the connection, which stops the daemon. */
/* Sends the request's files; `count` gets how many were delivered, `name` (of `size`
 * bytes) the name of the device they went to, as the daemon says it. */
static int32_t send_files(const actshare_request *request, const char *device, actshare_session *session, int *count,
                          char *name, size_t size) {
    char error[1024];
    control c;
    if (control_open(&c, error, sizeof error) != 0) {
        session->set_error(session, error);
        return ACTSHARE_STATUS_FAILED;
    }
    json_object *message = json_object_new_object(), *paths = json_object_new_array();
    json_object_object_add(message, "op", json_object_new_string("send-files"));
    for (size_t i = 0; i < request->item_count; i++) {
        if (request->items[i].kind == ACTSHARE_ITEM_FILE) json_object_array_add(paths, json_object_new_string(request->items[i].path));
    }
    json_object_object_add(message, "paths", paths);
    add_device(message, device);
    int32_t status = ACTSHARE_STATUS_FAILED;
    if (control_send(&c, message) != 0) {
        session->set_error(session, "the handoff daemon closed its socket");
    } else {
        for (;;) {
            int cancelled = 0;
            json_object *answer = control_receive(&c, session, &cancelled);
            if (cancelled) {
                status = ACTSHARE_STATUS_CANCELLED;
                break;
            }
            const char *event = answer ? string_field(answer, "event") : NULL;
            if (event) {
                /* Progress drives the session's; a phone's PIN (Quick Share) is the phone's
                 * to show, the share asked about there. */
                int64_t total = strcmp(event, "progress") == 0 ? number_field(answer, "total") : 0;
                if (total > 0) session->progress(session, (double)number_field(answer, "bytes") / (double)total);
                json_object_put(answer);
                continue;
            }
            if (answer_ok(answer)) {
                json_object *deliveries, *first, *files;
                json_object *named;
                if (json_object_object_get_ex(answer, "deliveries", &deliveries) && (first = json_object_array_get_idx(deliveries, 0)) &&
                    json_object_object_get_ex(first, "delivered", &files)) {
                    *count = (int)json_object_array_length(files);
                    /* A delivery names its device by name. */
                    if (json_object_object_get_ex(first, "device", &named) && json_object_is_type(named, json_type_string)) {
                        snprintf(name, size, "%s", json_object_get_string(named));
                    }
                }
                status = ACTSHARE_STATUS_DONE;
            } else {
                status = failed(session, answer, "the handoff daemon did not answer");
            }
            json_object_put(answer);
            break;
        }
    }
    json_object_put(message);
    control_close(&c);
    return status;
}

/* The items onto the device's clipboard: their text (URLs and text, one a line) or their
 * files, in one `clipboard-push`. */
static int32_t copy_to_clipboard(const actshare_request *request, const char *device, actshare_session *session) {
    buffer text = {0};
    json_object *paths = json_object_new_array();
    for (size_t i = 0; i < request->item_count; i++) {
        const actshare_item *item = &request->items[i];
        if (item->kind == ACTSHARE_ITEM_FILE) {
            json_object_array_add(paths, json_object_new_string(item->path));
        } else if (item->kind == ACTSHARE_ITEM_URL || item->kind == ACTSHARE_ITEM_TEXT) {
            if (text.length > 0) buffer_append_string(&text, "\n");
            buffer_append_string(&text, item->kind == ACTSHARE_ITEM_URL ? item->uri : item->text);
        }
    }
    int32_t status = ACTSHARE_STATUS_FAILED;
    json_object *message = json_object_new_object();
    json_object_object_add(message, "op", json_object_new_string("clipboard-push"));
    add_device(message, device);
    if (text.length > 0 && json_object_array_length(paths) > 0) {
        session->set_error(session, "a device's clipboard takes text or files, not both at once: copy them one after the other");
        status = ACTSHARE_STATUS_BAD_INPUT;
        json_object_put(paths);
    } else if (text.length > 0) {
        json_object_object_add(message, "text", json_object_new_string_len(text.bytes, (int)text.length));
        json_object_put(paths);
        status = ACTSHARE_STATUS_DONE;
    } else {
        json_object_object_add(message, "paths", paths);
        status = ACTSHARE_STATUS_DONE;
    }
    buffer_free(&text);
    char error[1024];
    control c = {.fd = -1};
    json_object *answer = NULL;
    if (status == ACTSHARE_STATUS_DONE) {
        if (control_open(&c, error, sizeof error) != 0) {
            session->set_error(session, error);
            status = ACTSHARE_STATUS_FAILED;
        } else {
            int cancelled = 0;
            answer = control_send(&c, message) == 0 ? control_receive(&c, NULL, &cancelled) : NULL;
            status = answer_ok(answer) ? ACTSHARE_STATUS_DONE : failed(session, answer, "the handoff daemon did not answer");
        }
    }
    if (status == ACTSHARE_STATUS_DONE) {
        /* The devices that took it, by the names the daemon says. */
        json_object *clipboard, *offered, *to = NULL, *first;
        const char *name = device;
        size_t took = 1;
        if (json_object_object_get_ex(answer, "clipboard", &clipboard) && json_object_object_get_ex(clipboard, "offered", &offered) &&
            json_object_object_get_ex(offered, "to", &to) && (first = json_object_array_get_idx(to, 0)) &&
            json_object_is_type(first, json_type_string)) {
            name = json_object_get_string(first);
            took = json_object_array_length(to);
        }
        char said[512];
        if (took > 1) snprintf(said, sizeof said, "copied to %zu devices' clipboards", took);
        else snprintf(said, sizeof said, "copied to %s's clipboard", name && *name ? name : "the device");
        session->return_item(session, ACTSHARE_ITEM_TEXT, said, NULL);
    }
    json_object_put(message);
    json_object_put(answer);
    control_close(&c);
    return status;
}

/* The most bytes of a text or link one code's share carries: what a QR code holds is the
 * code's own URL; the text goes over the connection, and Quick Share takes up to 1 MiB. */
#define QUICKSHARE_TEXT_LIMIT (1u << 20)

/* Quick Share to a Phone takes files (no folder), or one link or text, as Android does. */
static const char *quickshare_refusal(const actshare_request *request) {
    size_t files = 0;
    for (size_t i = 0; i < request->item_count; i++) {
        const actshare_item *item = &request->items[i];
        if (item->kind == ACTSHARE_ITEM_FILE) files++;
        else if (item->kind == ACTSHARE_ITEM_TEXT && strlen(item->text) > QUICKSHARE_TEXT_LIMIT) return "Quick Share takes a text of at most 1 MiB";
    }
    if (files > 0 && files < request->item_count) return "Quick Share sends files, or one link or text: not both at once";
    if (files == 0 && request->item_count != 1) return "Quick Share sends one link or text at a time";
    return NULL;
}

int32_t handoff_quickshare_can_perform(const actshare_request *request) {
    const char *refusal = quickshare_refusal(request);
    if (refusal) {
        actshare_decline(request, refusal);
        return 0;
    }
    return 1;
}

/* The QR code's share: the daemon makes the code and waits for the phone on its own; the
 * code is shown as Show QR Code shows one (libqrcode.so, beside this library). */
static int32_t share_by_qr_code(const actshare_request *request, actshare_session *session) {
    const char *refusal = quickshare_refusal(request);
    if (refusal) {
        session->set_error(session, refusal);
        return ACTSHARE_STATUS_BAD_INPUT;
    }
    json_object *message = json_object_new_object();
    json_object_object_add(message, "op", json_object_new_string("send-qr"));
    json_object_object_add(message, "background", json_object_new_boolean(1));
    const actshare_item *first = &request->items[0];
    if (first->kind == ACTSHARE_ITEM_FILE) {
        json_object *paths = json_object_new_array();
        for (size_t i = 0; i < request->item_count; i++) json_object_array_add(paths, json_object_new_string(request->items[i].path));
        json_object_object_add(message, "paths", paths);
    } else {
        json_object_object_add(message, "text", json_object_new_string(first->kind == ACTSHARE_ITEM_URL ? first->uri : first->text));
    }
    char error[1024];
    control c;
    int32_t status = ACTSHARE_STATUS_FAILED;
    json_object *answer = NULL;
    if (control_open(&c, error, sizeof error) != 0) {
        session->set_error(session, error);
        json_object_put(message);
        return status;
    }
    int cancelled = 0;
    answer = control_send(&c, message) == 0 ? control_receive(&c, session, &cancelled) : NULL;
    const char *url = answer_ok(answer) ? string_field(answer, "url") : NULL;
    if (cancelled) {
        status = ACTSHARE_STATUS_CANCELLED;
    } else if (!url) {
        status = failed(session, answer, "the handoff daemon did not answer");
    } else {
        int32_t (*show)(const char *, const char *, int, actshare_session *) =
            (int32_t (*)(const char *, const char *, int, actshare_session *))sibling_symbol((const void *)handoff_send, "libqrcode.so", "qrcode_show", error, sizeof error);
        if (!show) {
            session->set_error(session, error);
        } else if ((status = show(url, NULL, 0, session)) == ACTSHARE_STATUS_DONE) {
            session->return_item(session, ACTSHARE_ITEM_TEXT,
                                 "Scan this code with the phone's camera: Quick Share opens there, and the phone that scanned it gets what you shared (the code lasts 2 minutes).",
                                 "text/plain");
        }
    }
    json_object_put(message);
    json_object_put(answer);
    control_close(&c);
    return status;
}

int32_t handoff_send(const actshare_request *request, actshare_session *session) {
    if (strcmp(request->activity_type, ACTSHARE_HANDOFF_QUICKSHARE_ACTIVITY_TYPE) == 0) return share_by_qr_code(request, session);
    /* The device chosen: a target (--target, the sheet's row), or the option `device`,
     * which scripts name it by (an id or a name either way). */
    const char *device = actshare_request_target(request);
    if (!device) device = session->option(session, ACTSHARE_HANDOFF_DEVICE_OPTION);
    const char *clipboard = session->option(session, ACTSHARE_HANDOFF_CLIPBOARD_OPTION);
    if ((clipboard && strcmp(clipboard, "true") == 0) || strcmp(request->activity_type, ACTSHARE_HANDOFF_CLIPBOARD_ACTIVITY_TYPE) == 0) {
        return copy_to_clipboard(request, device, session);
    }
    int handed = 0, files = 0, has_files = 0;
    /* The device's name, as the daemon says it (the option may be its id, from the share
     * sheet's row). */
    char name[256] = "";
    for (size_t i = 0; i < request->item_count; i++) {
        const actshare_item *item = &request->items[i];
        if (item->kind == ACTSHARE_ITEM_FILE) {
            has_files = 1;
            continue;
        }
        if (item->kind != ACTSHARE_ITEM_URL && item->kind != ACTSHARE_ITEM_TEXT) {
            session->set_error(session, "only files, folders, URLs and text can be handed off");
            return ACTSHARE_STATUS_BAD_INPUT;
        }
        /* The receiver opens a URL in its browser: http and https only (the receiving
         * daemon refuses anything else too). */
        if (item->kind == ACTSHARE_ITEM_URL && strncasecmp(item->uri, "http://", 7) != 0 && strncasecmp(item->uri, "https://", 8) != 0) {
            char error[128];
            snprintf(error, sizeof error, "only http and https URLs can be handed off, not %.40s%s", item->uri, strlen(item->uri) > 40 ? "…" : "");
            session->set_error(session, error);
            return ACTSHARE_STATUS_BAD_INPUT;
        }
        int32_t status = send_activity(item, device, session, name, sizeof name);
        if (status != ACTSHARE_STATUS_DONE) return status;
        handed++;
    }
    if (has_files) {
        int32_t status = send_files(request, device, session, &files, name, sizeof name);
        if (status != ACTSHARE_STATUS_DONE) return status;
    }
    char said[320]; /* the words and a device name of up to 255 bytes, whole */
    const char *to = *name ? name : device && *device ? device : NULL;
    if (files > 0 && handed == 0) {
        snprintf(said, sizeof said, "sent %d file%s%s%s", files, files == 1 ? "" : "s", to ? " to " : "", to ? to : "");
    } else {
        snprintf(said, sizeof said, "handed off %d item%s%s%s", handed + files, handed + files == 1 ? "" : "s", to ? " to " : "", to ? to : "");
    }
    session->return_item(session, ACTSHARE_ITEM_TEXT, said, NULL);
    return ACTSHARE_STATUS_DONE;
}
