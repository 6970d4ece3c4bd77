/*
 * actshare-provider-host: runs one provider library for actshare, in a process of its own.
 *
 * actshare starts it with the protocol on file descriptors 3 (requests) and 4 (replies).
 * Before loading any provider code it moves them to private descriptors and points its
 * standard output at standard error, so a provider that prints cannot corrupt the
 * protocol. It then answers LOAD, REQUEST, CALL and SYMBOL frames until its input closes. Hook
 * calls go through cas_invoke, as in the host. SIGUSR1 sets the session's cancelled flag.
 *
 * Any fault of the provider (a crash, exit(), a hang) ends this process; actshare sees
 * the pipe close, the process end or the time limit pass and reports it. What the
 * provider starts ends with the call that started it (containment.c).
 */
#include "containment.h"
#include "protocol.h"

#include <CActShareCall.h>
#include <actshare/provider.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int protocol_in = -1;
static int protocol_out = -1;
static volatile sig_atomic_t cancelled = 0;

static void on_cancel(int signal_number) {
    (void)signal_number;
    cancelled = 1;
}

/* ---- Frames ---------------------------------------------------------------------- */

typedef struct buffer {
    unsigned char *bytes;
    size_t length, capacity, offset;
} buffer;

static void put(buffer *b, const void *bytes, size_t length) {
    if (b->length + length > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 256;
        while (capacity < b->length + length) capacity *= 2;
        b->bytes = realloc(b->bytes, capacity);
        if (!b->bytes) _exit(70);
        b->capacity = capacity;
    }
    memcpy(b->bytes + b->length, bytes, length);
    b->length += length;
}

static void put_u8(buffer *b, unsigned value) { unsigned char byte = (unsigned char)value; put(b, &byte, 1); }
static void put_u32(buffer *b, uint32_t value) {
    unsigned char bytes[4] = {value & 0xFF, (value >> 8) & 0xFF, (value >> 16) & 0xFF, value >> 24};
    put(b, bytes, 4);
}
static void put_u64(buffer *b, uint64_t value) {
    put_u32(b, (uint32_t)value);
    put_u32(b, (uint32_t)(value >> 32));
}
static void put_string(buffer *b, const char *string) {
    size_t length = strlen(string);
    put_u32(b, (uint32_t)length);
    put(b, string, length);
}
static void put_optional_string(buffer *b, const char *string) {
    put_u8(b, string != NULL);
    if (string) put_string(b, string);
}

static void write_all(const unsigned char *bytes, size_t length) {
    while (length > 0) {
        ssize_t count = write(protocol_out, bytes, length);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) _exit(75); /* the pipe is gone: actshare went away, or the provider closed it */
        bytes += count;
        length -= (size_t)count;
    }
}

/* Sends a frame of `type` whose payload is `payload` (which may be NULL). */
static void send_frame(unsigned type, const buffer *payload) {
    buffer frame = {0};
    size_t length = 1 + (payload ? payload->length : 0);
    put_u32(&frame, (uint32_t)length);
    put_u8(&frame, type);
    if (payload) put(&frame, payload->bytes, payload->length);
    write_all(frame.bytes, frame.length);
    free(frame.bytes);
}

static void send_error(const char *message) {
    buffer payload = {0};
    put_string(&payload, message);
    send_frame(FRAME_ERROR, &payload);
    free(payload.bytes);
}

static int read_all(unsigned char *bytes, size_t length) {
    while (length > 0) {
        ssize_t count = read(protocol_in, bytes, length);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return -1;
        bytes += count;
        length -= (size_t)count;
    }
    return 0;
}

/* Reads one frame into `b` (type first); -1 at end of input or on a malformed frame. */
static int read_frame(buffer *b) {
    unsigned char header[4];
    if (read_all(header, 4) != 0) return -1;
    uint32_t length = header[0] | (header[1] << 8) | (header[2] << 16) | ((uint32_t)header[3] << 24);
    if (length == 0 || length > PROTOCOL_MAX_FRAME) return -1;
    free(b->bytes);
    b->bytes = malloc(length);
    if (!b->bytes) return -1;
    b->length = b->capacity = length;
    b->offset = 0;
    return read_all(b->bytes, length);
}

static int get(buffer *b, void *out, size_t length) {
    if (b->offset + length > b->length) return -1;
    memcpy(out, b->bytes + b->offset, length);
    b->offset += length;
    return 0;
}
static int get_u8(buffer *b, unsigned *value) {
    unsigned char byte;
    if (get(b, &byte, 1) != 0) return -1;
    *value = byte;
    return 0;
}
static int get_u32(buffer *b, uint32_t *value) {
    unsigned char bytes[4];
    if (get(b, bytes, 4) != 0) return -1;
    *value = bytes[0] | (bytes[1] << 8) | (bytes[2] << 16) | ((uint32_t)bytes[3] << 24);
    return 0;
}
static int get_u64(buffer *b, uint64_t *value) {
    uint32_t low, high;
    if (get_u32(b, &low) != 0 || get_u32(b, &high) != 0) return -1;
    *value = low | ((uint64_t)high << 32);
    return 0;
}
/* A NUL-terminated copy of a string, or NULL for an absent optional one. */
static int get_string(buffer *b, char **out) {
    uint32_t length;
    if (get_u32(b, &length) != 0 || b->offset + length > b->length) return -1;
    *out = malloc(length + 1);
    if (!*out) return -1;
    memcpy(*out, b->bytes + b->offset, length);
    (*out)[length] = '\0';
    b->offset += length;
    return 0;
}
static int get_optional_string(buffer *b, char **out) {
    unsigned present;
    *out = NULL;
    if (get_u8(b, &present) != 0) return -1;
    return present ? get_string(b, out) : 0;
}

/* ---- The request --------------------------------------------------------------- */

static actshare_request request;
static actshare_item *items;
static actshare_option *options;

static void free_request(void) {
    for (size_t i = 0; i < request.item_count; i++) {
        free((void *)items[i].path);
        free((void *)items[i].uri);
        free((void *)items[i].content_type);
        free((void *)items[i].data); /* text items' text points into data */
    }
    for (size_t i = 0; i < request.option_count; i++) {
        free((void *)options[i].name);
        free((void *)options[i].value);
    }
    free(items);
    free(options);
    free((void *)request.activity_type);
    free((void *)request.subject);
    memset(&request, 0, sizeof request);
    items = NULL;
    options = NULL;
}

/* REQUEST: string type, optional subject, u32 items {u8 kind, opt path, opt uri,
 * string content type, u64 size, u8 has data, [u32 length, bytes]}, u32 options
 * {string name, string value}. */
static int read_request(buffer *b) {
    free_request();
    uint32_t count;
    char *type = NULL, *subject = NULL;
    if (get_string(b, &type) != 0 || get_optional_string(b, &subject) != 0 || get_u32(b, &count) != 0) return -1;
    request.abi_version = ACTSHARE_ABI_VERSION;
    request.struct_size = sizeof(actshare_request);
    request.activity_type = type;
    request.subject = subject;
    items = calloc(count ? count : 1, sizeof(actshare_item));
    if (!items || count > b->length) return -1;
    for (uint32_t i = 0; i < count; i++) {
        unsigned kind, has_data;
        char *path, *uri, *content_type;
        uint64_t size;
        if (get_u8(b, &kind) != 0 || get_optional_string(b, &path) != 0 || get_optional_string(b, &uri) != 0
            || get_string(b, &content_type) != 0 || get_u64(b, &size) != 0 || get_u8(b, &has_data) != 0) return -1;
        items[i].kind = (int32_t)kind;
        items[i].path = path;
        items[i].uri = uri;
        items[i].content_type = content_type;
        items[i].size = size;
        request.item_count = i + 1;
        if (has_data) {
            uint32_t length;
            if (get_u32(b, &length) != 0 || b->offset + length > b->length) return -1;
            char *data = malloc((size_t)length + 1);
            if (!data) return -1;
            memcpy(data, b->bytes + b->offset, length);
            data[length] = '\0';
            b->offset += length;
            items[i].data = data;
            items[i].data_length = length;
            if (kind == ACTSHARE_ITEM_TEXT) items[i].text = data;
        }
    }
    request.items = items;
    if (get_u32(b, &count) != 0 || count > b->length) return -1;
    options = calloc(count ? count : 1, sizeof(actshare_option));
    if (!options) return -1;
    for (uint32_t i = 0; i < count; i++) {
        char *name, *value;
        if (get_string(b, &name) != 0 || get_string(b, &value) != 0) return -1;
        options[i].name = name;
        options[i].value = value;
        request.option_count = i + 1;
    }
    request.options = options;
    return 0;
}

/* ---- The session: callbacks become frames ---------------------------------------- */

static void session_progress(actshare_session *session, double fraction) {
    (void)session;
    buffer payload = {0};
    uint64_t bits;
    memcpy(&bits, &fraction, sizeof bits);
    put_u64(&payload, bits);
    send_frame(FRAME_PROGRESS, &payload);
    free(payload.bytes);
}

static void session_log(actshare_session *session, int32_t level, const char *message) {
    (void)session;
    if (!message) return;
    buffer payload = {0};
    put_u8(&payload, (unsigned)level & 0xFF);
    put_string(&payload, message);
    send_frame(FRAME_LOG, &payload);
    free(payload.bytes);
}

static int32_t session_return_item(actshare_session *session, int32_t kind, const char *value, const char *content_type) {
    (void)session;
    if (!value || kind < 0 || kind > ACTSHARE_ITEM_DATA) return -1;
    buffer payload = {0};
    put_u8(&payload, (unsigned)kind);
    put_string(&payload, value);
    put_optional_string(&payload, content_type);
    send_frame(FRAME_ITEM, &payload);
    free(payload.bytes);
    return 0;
}

static const char *session_option(actshare_session *session, const char *name) {
    (void)session;
    for (size_t i = 0; name && i < request.option_count; i++) {
        if (strcmp(options[i].name, name) == 0) return options[i].value;
    }
    return NULL;
}

static void session_set_error(actshare_session *session, const char *message) {
    (void)session;
    if (!message) return;
    buffer payload = {0};
    put_string(&payload, message);
    send_frame(FRAME_SET_ERROR, &payload);
    free(payload.bytes);
}

static int32_t session_is_cancelled(actshare_session *session) {
    (void)session;
    return cancelled ? 1 : 0;
}

/* ---- Main loop ------------------------------------------------------------------- */

static void *library;

static void handle_call(buffer *b, actshare_session *session) {
    char *symbol = NULL;
    unsigned returns, count;
    cas_argument arguments[CAS_MAX_ARGUMENTS];
    char *names[CAS_MAX_ARGUMENTS] = {0};
    uint64_t item;
    if (get_string(b, &symbol) != 0 || get_u8(b, &returns) != 0 || get_u8(b, &count) != 0 || count > CAS_MAX_ARGUMENTS) {
        free(symbol);
        send_error("malformed CALL frame");
        return;
    }
    for (unsigned i = 0; i < count; i++) {
        unsigned word;
        if (get_u8(b, &word) != 0 || (word == CAS_ARG_OPTION && get_string(b, &names[i]) != 0)) {
            send_error("malformed CALL frame");
            goto done;
        }
        arguments[i].word = (int32_t)word;
        arguments[i].option = names[i];
    }
    if (get_u64(b, &item) != 0) {
        send_error("malformed CALL frame");
        goto done;
    }
    if (!library) {
        send_error("no library is loaded");
        goto done;
    }
    dlerror();
    void *function = dlsym(library, symbol);
    if (!function) {
        char message[512];
        snprintf(message, sizeof message, "symbol '%s' is not in the library", symbol);
        send_error(message);
        goto done;
    }
    uint64_t result = 0;
    char error[512];
    int failed = cas_invoke(function, arguments, count, (int32_t)returns, &request, session, (long)(int64_t)item, &result,
                            error, sizeof error);
    /* No process a hook started outlives its call. */
    containment_kill_descendants();
    if (failed != 0) {
        send_error(error);
        goto done;
    }
    buffer payload = {0};
    put_u64(&payload, result);
    put_optional_string(&payload, returns == CAS_RETURN_STRING ? (const char *)(uintptr_t)result : NULL);
    send_frame(FRAME_DONE, &payload);
    free(payload.bytes);
done:
    for (unsigned i = 0; i < count; i++) free(names[i]);
    free(symbol);
}

int main(void) {
    /* Nothing but the protocol is inherited on purpose: close anything else. */
    close_range(5, ~0U, 0);
    /* The protocol moves to private descriptors, and stdout to stderr, before any
     * provider code runs: what a provider prints cannot reach the pipe. */
    protocol_in = fcntl(3, F_DUPFD_CLOEXEC, 100);
    protocol_out = fcntl(4, F_DUPFD_CLOEXEC, 100);
    if (protocol_in < 0 || protocol_out < 0) {
        fprintf(stderr, "actshare-provider-host: run by actshare only (no protocol on fds 3 and 4)\n");
        return 64;
    }
    close(3);
    close(4);
    dup2(2, 1);
    containment_start(protocol_in, protocol_out);
    signal(SIGPIPE, SIG_IGN);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_cancel;
    sigaction(SIGUSR1, &action, NULL);
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGUSR1);
    sigprocmask(SIG_UNBLOCK, &signals, NULL);

    actshare_session session = {
        .abi_version = ACTSHARE_ABI_VERSION,
        .struct_size = sizeof(actshare_session),
        .progress = session_progress,
        .log = session_log,
        .return_item = session_return_item,
        .option = session_option,
        .set_error = session_set_error,
        .is_cancelled = session_is_cancelled,
    };
    buffer frame = {0};
    while (read_frame(&frame) == 0) {
        unsigned type;
        get_u8(&frame, &type);
        switch (type) {
        case FRAME_LOAD: {
            char *path = NULL;
            if (get_string(&frame, &path) != 0) {
                send_error("malformed LOAD frame");
                break;
            }
            library = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
            containment_kill_descendants(); /* nor one a library's constructor started */
            if (library) {
                send_frame(FRAME_OK, NULL);
            } else {
                const char *reason = dlerror();
                size_t prefix = strlen(path);
                /* dlerror starts with the path, which actshare already names. */
                if (reason && strncmp(reason, path, prefix) == 0 && strncmp(reason + prefix, ": ", 2) == 0) reason += prefix + 2;
                send_error(reason ? reason : "cannot load the library");
            }
            free(path);
            break;
        }
        case FRAME_REQUEST:
            cancelled = 0;
            if (read_request(&frame) == 0) {
                send_frame(FRAME_OK, NULL);
            } else {
                send_error("malformed REQUEST frame");
            }
            break;
        case FRAME_CALL:
            handle_call(&frame, &session);
            break;
        case FRAME_SYMBOL: {
            char *symbol = NULL;
            if (get_string(&frame, &symbol) != 0 || !library) {
                send_error("malformed SYMBOL frame");
            } else if (dlsym(library, symbol)) {
                send_frame(FRAME_OK, NULL);
            } else {
                char message[512];
                snprintf(message, sizeof message, "symbol '%s' is not in the library", symbol);
                send_error(message);
            }
            free(symbol);
            break;
        }
        default:
            send_error("unknown frame");
            break;
        }
    }
    return 0;
}
