/*
 * actshare-provider-host: runs one provider library for actshare, in a process of its own.
 *
 * actshare starts it with the protocol (actshare/provider_protocol.h) on file descriptors
 * 3 (actshare's frames) and 4 (this helper's). Before loading any provider code it moves
 * them to private descriptors and points its standard output at standard error, so a
 * provider that prints cannot corrupt the protocol. It then answers LOAD, REQUEST and
 * CALL frames until its input closes. Hook calls go through cas_invoke, as in the host.
 * SIGUSR1 sets the session's cancelled flag.
 *
 * Any fault of the provider (a crash, exit(), a hang) ends this process; actshare sees
 * the pipe close, the process end or the time limit pass and reports it. What the
 * provider starts ends with the call that started it (containment.c).
 */
#include "containment.h"
#include "sandbox.h"

#include <CActShareCall.h>
#include <actshare/provider.h>
#include <actshare/provider_protocol.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int protocol_in = -1;
static int protocol_out = -1;
static volatile sig_atomic_t cancelled = 0;
/* Held while a frame is written (and, for ITEM, until its ANSWER is read): a provider
 * may call back from threads of its own. */
static pthread_mutex_t wire = PTHREAD_MUTEX_INITIALIZER;

static void on_cancel(int signal_number) {
    (void)signal_number;
    cancelled = 1;
}

/* ---- Sending ----------------------------------------------------------------------- */

/* Sends a frame; a reply pipe that is gone ends the helper (actshare went away, or the
 * provider closed it). */
static void send_locked(unsigned type, const asp_buffer *payload) {
    if (asp_write_frame(protocol_out, type, payload) != 0) _exit(ASP_EXIT_PIPE_GONE);
}

static void send_frame(unsigned type, const asp_buffer *payload) {
    pthread_mutex_lock(&wire);
    send_locked(type, payload);
    pthread_mutex_unlock(&wire);
}

static void send_error(unsigned kind, const char *message) {
    asp_buffer payload = {0};
    asp_put_u8(&payload, kind);
    asp_put_string(&payload, message);
    send_frame(ASP_FRAME_ERROR, &payload);
    asp_free(&payload);
}

/* ---- The request --------------------------------------------------------------- */

static void request_decline(const actshare_request *declining, const char *reason);
static int32_t request_add_target(const actshare_request *offering, const actshare_target *target);

_Static_assert(ASP_MAX_TARGET_FRAMES == ACTSHARE_MAX_TARGETS + 1, "one TARGET frame past what actshare keeps");

static actshare_request request;
static actshare_item *items;
static actshare_option *options;

static void free_request(void) {
    for (size_t i = 0; items && i < request.item_count; i++) {
        free((void *)items[i].path);
        free((void *)items[i].uri);
        free((void *)items[i].content_type);
        free((void *)items[i].data); /* text items' text points into data */
    }
    for (size_t i = 0; options && i < request.option_count; i++) {
        free((void *)options[i].name);
        free((void *)options[i].value);
    }
    free(items);
    free(options);
    free((void *)request.activity_type);
    free((void *)request.subject);
    free((void *)request.target);
    memset(&request, 0, sizeof request);
    items = NULL;
    options = NULL;
}

/* REQUEST (see provider_protocol.h). */
static int read_request(asp_buffer *b) {
    free_request();
    uint32_t count;
    char *type = NULL, *subject = NULL;
    request.abi_version = ACTSHARE_ABI_VERSION;
    request.struct_size = sizeof(actshare_request);
    request.decline = request_decline;
    request.add_target = request_add_target;
    if (asp_get_bytes(b, &type, NULL) != 0) return -1;
    request.activity_type = type;
    if (asp_get_optional_bytes(b, &subject, NULL) != 0) return -1;
    request.subject = subject;
    /* Each item takes at least 17 bytes: a count beyond the payload is a lie. */
    if (asp_get_u32(b, &count) != 0 || count > b->length) return -1;
    items = calloc(count ? count : 1, sizeof(actshare_item));
    if (!items) return -1;
    request.items = items;
    for (uint32_t i = 0; i < count; i++) {
        unsigned kind;
        char *path = NULL, *uri = NULL, *content_type = NULL, *data = NULL;
        size_t data_length = 0;
        uint64_t size = 0;
        int failed = asp_get_u8(b, &kind) != 0 || asp_get_optional_bytes(b, &path, NULL) != 0
            || asp_get_optional_bytes(b, &uri, NULL) != 0 || asp_get_bytes(b, &content_type, NULL) != 0
            || asp_get_u64(b, &size) != 0 || asp_get_optional_data(b, &data, &data_length) != 0;
        items[i].kind = (int32_t)kind;
        items[i].path = path;
        items[i].uri = uri;
        items[i].content_type = content_type;
        items[i].size = size;
        items[i].data = data;
        items[i].data_length = data_length;
        if (data && kind == ACTSHARE_ITEM_TEXT) items[i].text = data;
        request.item_count = i + 1;
        if (failed) return -1;
    }
    if (asp_get_u32(b, &count) != 0 || count > b->length) return -1;
    options = calloc(count ? count : 1, sizeof(actshare_option));
    if (!options) return -1;
    request.options = options;
    for (uint32_t i = 0; i < count; i++) {
        char *name = NULL, *value = NULL;
        int failed = asp_get_bytes(b, &name, NULL) != 0 || asp_get_bytes(b, &value, NULL) != 0;
        options[i].name = name ? name : strdup("");
        options[i].value = value ? value : strdup("");
        request.option_count = i + 1;
        if (failed) return -1;
    }
    char *target = NULL;
    if (asp_get_optional_bytes(b, &target, NULL) != 0) return -1;
    request.target = target;
    return 0;
}

/* ---- The session: callbacks become frames ---------------------------------------- */

/* A log or error message, cut at ASP_MAX_MESSAGE bytes as actshare cuts them in process. */
static void put_message(asp_buffer *payload, const char *message) {
    size_t length = strnlen(message, ASP_MAX_MESSAGE);
    asp_put_u32(payload, (uint32_t)length);
    asp_put(payload, message, length);
}

static void session_progress(actshare_session *session, double fraction) {
    (void)session;
    asp_buffer payload = {0};
    uint64_t bits;
    memcpy(&bits, &fraction, sizeof bits);
    asp_put_u64(&payload, bits);
    send_frame(ASP_FRAME_PROGRESS, &payload);
    asp_free(&payload);
}

static void session_log(actshare_session *session, int32_t level, const char *message) {
    (void)session;
    if (!message) return;
    asp_buffer payload = {0};
    asp_put_u8(&payload, (unsigned)level & 0xFF);
    put_message(&payload, message);
    send_frame(ASP_FRAME_LOG, &payload);
    asp_free(&payload);
}

/* actshare decides whether the item is usable, as it does for an in-process provider:
 * the ITEM frame waits for its ANSWER, which this returns. */
static int32_t session_return_item(actshare_session *session, int32_t kind, const char *value, const char *content_type) {
    (void)session;
    if (!value) return -1;
    asp_buffer payload = {0};
    asp_put_u8(&payload, (unsigned)kind & 0xFF);
    asp_put_string(&payload, value);
    asp_put_optional_string(&payload, content_type);
    pthread_mutex_lock(&wire);
    send_locked(ASP_FRAME_ITEM, &payload);
    unsigned type = 0, refused = 1;
    asp_buffer answer = {0};
    if (asp_read_frame(protocol_in, &answer, &type) != 0 || type != ASP_FRAME_ANSWER || asp_get_u8(&answer, &refused) != 0) {
        _exit(ASP_EXIT_PIPE_GONE);
    }
    pthread_mutex_unlock(&wire);
    asp_free(&answer);
    asp_free(&payload);
    return refused ? -1 : 0;
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
    asp_buffer payload = {0};
    put_message(&payload, message);
    send_frame(ASP_FRAME_SET_ERROR, &payload);
    asp_free(&payload);
}

/* actshare_decline during a can_perform call. */
static void request_decline(const actshare_request *declining, const char *reason) {
    (void)declining;
    if (!reason) return;
    asp_buffer payload = {0};
    put_message(&payload, reason);
    send_frame(ASP_FRAME_DECLINE, &payload);
    asp_free(&payload);
}

/* TARGET frames sent during the current call (reset by handle_call). */
static unsigned targets_sent;

/* actshare_add_target during a can_perform call: passed on as it is, for actshare to
 * check as it checks an in-process provider's; past ASP_MAX_TARGET_FRAMES, not sent. */
static int32_t request_add_target(const actshare_request *offering, const actshare_target *target) {
    (void)offering;
    if (!target || target->struct_size < offsetof(actshare_target, image) + sizeof target->image || !target->id || !target->title) {
        return -1;
    }
    pthread_mutex_lock(&wire);
    unsigned sent = targets_sent < ASP_MAX_TARGET_FRAMES ? ++targets_sent : ASP_MAX_TARGET_FRAMES + 1;
    pthread_mutex_unlock(&wire);
    if (sent > ASP_MAX_TARGET_FRAMES) return -1;
    asp_buffer payload = {0};
    asp_put_u8(&payload, (unsigned)target->kind & 0xFF);
    put_message(&payload, target->id);
    put_message(&payload, target->title);
    asp_put_u8(&payload, target->subtitle ? 1 : 0);
    if (target->subtitle) put_message(&payload, target->subtitle);
    asp_put_u8(&payload, target->image ? 1 : 0);
    if (target->image) put_message(&payload, target->image);
    send_frame(ASP_FRAME_TARGET, &payload);
    asp_free(&payload);
    return sent <= ACTSHARE_MAX_TARGETS ? 0 : -1;
}

static int32_t session_is_cancelled(actshare_session *session) {
    (void)session;
    return cancelled ? 1 : 0;
}

/* ---- Frames from actshare -------------------------------------------------------- */

static void *library;

/* REFUSED: something the sandbox refused during a call. */
static void send_refused(unsigned what, const char *subject) {
    asp_buffer payload = {0};
    asp_put_u8(&payload, what);
    asp_put_string(&payload, subject);
    send_frame(ASP_FRAME_REFUSED, &payload);
    asp_free(&payload);
}

/* Set by --threads-only: no guard was forked (containment.h). */
static int threads_only;

/* Set when the sandbox could not be set up: then no library is ever loaded here. */
static int sandbox_failed;

/* SANDBOX: once, before LOAD; answered with the Landlock ABI enforced. */
static void handle_sandbox(asp_buffer *b) {
    static int applied;
    char error[512];
    uint32_t abi = 0;
    unsigned capped = 0;
    if (applied || library) {
        send_error(ASP_ERROR_MALFORMED, "SANDBOX after SANDBOX or LOAD");
        return;
    }
    applied = 1;
    int failed = sandbox_apply(b, threads_only, &abi, &capped, error, sizeof error);
    if (failed != 0) {
        /* Half a sandbox is no sandbox: no provider code runs here (a LOAD that actshare
         * sent without waiting is refused too). */
        sandbox_failed = 1;
        send_error((unsigned)failed, error);
        return;
    }
    asp_buffer payload = {0};
    asp_put_u32(&payload, abi);
    asp_put_u8(&payload, capped);
    send_frame(ASP_FRAME_OK, &payload);
    asp_free(&payload);
}

/* LOAD: opens the library and names the symbols it lacks. */
static void handle_load(asp_buffer *b) {
    char *path = NULL;
    uint32_t count = 0;
    if (library) {
        send_error(ASP_ERROR_MALFORMED, "a library is loaded already");
        return;
    }
    if (sandbox_failed) {
        send_error(ASP_ERROR_SANDBOX, "the sandbox could not be set up");
        return;
    }
    if (asp_get_bytes(b, &path, NULL) != 0 || asp_get_u32(b, &count) != 0 || count > b->length) {
        free(path);
        send_error(ASP_ERROR_MALFORMED, "malformed LOAD frame");
        return;
    }
    /* The provider must not hold the channel to the guard (sandbox_apply closed it
     * already when there is a sandbox). */
    containment_close_channel();
    library = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    containment_kill_descendants(); /* nor does one a library's constructor started */
    if (!library) {
        const char *reason = dlerror();
        size_t prefix = strlen(path);
        /* dlerror starts with the path, which actshare already names. */
        if (reason && strncmp(reason, path, prefix) == 0 && strncmp(reason + prefix, ": ", 2) == 0) reason += prefix + 2;
        send_error(ASP_ERROR_LOAD, reason ? reason : "cannot load the library");
        free(path);
        return;
    }
    free(path);
    asp_buffer missing = {0};
    uint32_t missing_count = 0;
    for (uint32_t i = 0; i < count; i++) {
        char *symbol = NULL;
        if (asp_get_bytes(b, &symbol, NULL) != 0) {
            asp_free(&missing);
            send_error(ASP_ERROR_MALFORMED, "malformed LOAD frame");
            return;
        }
        if (!dlsym(library, symbol)) {
            asp_put_u32(&missing, i);
            missing_count++;
        }
        free(symbol);
    }
    asp_buffer payload = {0};
    asp_put_u32(&payload, missing_count);
    if (missing.length) asp_put(&payload, missing.bytes, missing.length);
    send_frame(ASP_FRAME_OK, &payload);
    asp_free(&payload);
    asp_free(&missing);
}

static void handle_call(asp_buffer *b, actshare_session *session) {
    char *symbol = NULL;
    unsigned returns, count = 0;
    cas_argument arguments[CAS_MAX_ARGUMENTS];
    char *names[CAS_MAX_ARGUMENTS] = {0};
    uint64_t item;
    if (asp_get_bytes(b, &symbol, NULL) != 0 || asp_get_u8(b, &returns) != 0 || asp_get_u8(b, &count) != 0
        || count > CAS_MAX_ARGUMENTS) {
        count = 0;
        send_error(ASP_ERROR_MALFORMED, "malformed CALL frame");
        goto done;
    }
    for (unsigned i = 0; i < count; i++) {
        unsigned word;
        if (asp_get_u8(b, &word) != 0 || (word == CAS_ARG_OPTION && asp_get_bytes(b, &names[i], NULL) != 0)) {
            send_error(ASP_ERROR_MALFORMED, "malformed CALL frame");
            goto done;
        }
        arguments[i].word = (int32_t)word;
        arguments[i].option = names[i];
    }
    if (asp_get_u64(b, &item) != 0) {
        send_error(ASP_ERROR_MALFORMED, "malformed CALL frame");
        goto done;
    }
    if (!library) {
        send_error(ASP_ERROR_NO_LIBRARY, "no library is loaded");
        goto done;
    }
    void *function = dlsym(library, symbol);
    if (!function) {
        send_error(ASP_ERROR_SYMBOL, symbol);
        goto done;
    }
    uint64_t result = 0;
    char error[512];
    targets_sent = 0;
    int failed = cas_invoke(function, arguments, count, (int32_t)returns, &request, session, (long)(int64_t)item, &result,
                            error, sizeof error);
    /* No process a hook started outlives its call. */
    containment_kill_descendants();
    /* What the sandbox refused during the call, before its result. */
    sandbox_take_notes(send_refused);
    if (failed != 0) {
        send_error(ASP_ERROR_CALL, error);
        goto done;
    }
    const char *string = returns == CAS_RETURN_STRING ? (const char *)(uintptr_t)result : NULL;
    size_t length = string ? strnlen(string, ASP_MAX_STRING + 1) : 0;
    if (length > ASP_MAX_STRING) {
        char size[32];
        snprintf(size, sizeof size, "%zu", strlen(string));
        send_error(ASP_ERROR_TOO_LARGE, size);
        goto done;
    }
    asp_buffer payload = {0};
    asp_put_u64(&payload, result);
    asp_put_optional_string(&payload, string);
    send_frame(ASP_FRAME_DONE, &payload);
    asp_free(&payload);
done:
    for (unsigned i = 0; i < count; i++) free(names[i]);
    free(symbol);
}

/* The descriptor of the connection to the handoff daemon that actshare opens for a
 * provider with `handoff: true` (HandoffGrant.swift), named to the provider in
 * ACTSHARE_HANDOFF_FD. */
#define GRANT_FD 5

int main(int argc, char **argv) {
    /* Nothing but the protocol (and a grant) is inherited on purpose: close anything else. */
    const char *granted = getenv("ACTSHARE_HANDOFF_FD");
    int grant = granted && strcmp(granted, "5") == 0 && fcntl(GRANT_FD, F_GETFD) >= 0 ? GRANT_FD : -1;
    close_range(grant >= 0 ? GRANT_FD + 1 : GRANT_FD, ~0U, 0);
    if (grant >= 0) fcntl(grant, F_SETFD, FD_CLOEXEC); /* the provider's, not its children's */
    else unsetenv("ACTSHARE_HANDOFF_FD");
    /* The protocol moves to private descriptors, and stdout to stderr, before any
     * provider code runs: what a provider prints cannot reach the pipe. */
    protocol_in = fcntl(3, F_DUPFD_CLOEXEC, 100);
    protocol_out = fcntl(4, F_DUPFD_CLOEXEC, 100);
    if (protocol_in < 0 || protocol_out < 0) {
        fprintf(stderr, "actshare-provider-host: run by actshare only (no protocol on fds 3 and 4)\n");
        return ASP_EXIT_USAGE;
    }
    close(3);
    close(4);
    dup2(2, 1);
    /* actshare says `--keep-sessions` for a provider whose manifest says background: true,
     * and `--unix-sockets` for one that may reach sockets (display, dbus): only then does
     * the guard supervise connects (supervisor.h). `--threads-only` for a helper whose
     * provider may start no process and write no private folder (its can-perform hooks,
     * without `exec`): nothing of it can outlive the worker, so no guard is forked, and a
     * SANDBOX that allows more is refused. */
    int keep_sessions = 0, unix_sockets = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--keep-sessions") == 0) keep_sessions = 1;
        if (strcmp(argv[i], "--unix-sockets") == 0) unix_sockets = 1;
        if (strcmp(argv[i], "--threads-only") == 0) threads_only = 1;
    }
    if (threads_only && (keep_sessions || unix_sockets || grant >= 0)) threads_only = 0;
    containment_start(protocol_in, protocol_out, grant, keep_sessions, unix_sockets, !threads_only);
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
    asp_buffer frame = {0};
    unsigned type;
    while (asp_read_frame(protocol_in, &frame, &type) == 0) {
        switch (type) {
        case ASP_FRAME_SANDBOX:
            handle_sandbox(&frame);
            break;
        case ASP_FRAME_LOAD:
            handle_load(&frame);
            break;
        case ASP_FRAME_REQUEST:
            cancelled = 0;
            if (read_request(&frame) == 0) {
                send_frame(ASP_FRAME_OK, NULL);
            } else {
                free_request();
                send_error(ASP_ERROR_MALFORMED, "malformed REQUEST frame");
            }
            break;
        case ASP_FRAME_CALL:
            handle_call(&frame, &session);
            break;
        default:
            send_error(ASP_ERROR_UNKNOWN_FRAME, "unknown frame type");
            break;
        }
    }
    return 0;
}
