/*
 * X11: owns the CLIPBOARD (and/or PRIMARY) selection through XCB and serves every
 * target, in a background process, until another client takes the selection or the
 * lifetime ends.
 *
 * The selection is taken and its ownership confirmed here, in the caller's process, so
 * that an error is reported and a paste right after actshare returns finds the new
 * data. Then a child inherits the connection and serves; the caller closes its copy of
 * the connection's socket and never uses the connection again. No exec: the server is
 * this code, already loaded.
 *
 * Large data goes by the INCR protocol (ICCCM 2.7.2), in chunks the requestor pulls by
 * deleting the property.
 */
#include "io.h"
#include "selection_notify.h"
#include "targets.h"

#include <xcb/xcb.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Up to this much goes in one property, more by INCR in chunks of this size: 1 MiB
 * transfers fastest under Xvfb (measured against 256 KiB and 4 MiB). */
#define INCR_CHUNK (1u << 20)

/* The background server's name in ps and /proc/PID/comm (at most 15 characters). */
#define SERVER_NAME "actshare-copy"

typedef struct served {
    xcb_atom_t atom;
    const unsigned char *data;
    uint32_t length;
    int file; /* a descriptor to read the data from once serving, or -1 */
} served;

typedef struct transfer {
    xcb_window_t requestor;
    xcb_atom_t property;
    const served *target;
    uint32_t offset;
} transfer;

typedef struct server {
    xcb_connection_t *connection;
    xcb_window_t window;
    xcb_atom_t targets_atom, timestamp_atom, incr;
    xcb_timestamp_t time;
    served list[CLIPBOARD_MAX_TARGETS];
    uint32_t count;
    int owned;      /* how many selections are still ours */
    uint32_t chunk; /* the most data sent in one property */
} server;

/* Answers one SelectionRequest; a target too large for one property starts an INCR transfer. */
static void answer(server *s, const xcb_selection_request_event_t *request, transfer **transfers, size_t *transfer_count) {
    xcb_connection_t *c = s->connection;
    xcb_atom_t property = request->property == XCB_NONE ? request->target : request->property;
    if (request->target == s->targets_atom) {
        xcb_atom_t offered[2 + CLIPBOARD_MAX_TARGETS] = {s->targets_atom, s->timestamp_atom};
        for (uint32_t i = 0; i < s->count; i++) offered[2 + i] = s->list[i].atom;
        xcb_change_property(c, XCB_PROP_MODE_REPLACE, request->requestor, property, XCB_ATOM_ATOM, 32, 2 + s->count, offered);
    } else if (request->target == s->timestamp_atom) {
        xcb_change_property(c, XCB_PROP_MODE_REPLACE, request->requestor, property, XCB_ATOM_INTEGER, 32, 1, &s->time);
    } else {
        const served *found = NULL;
        for (uint32_t i = 0; i < s->count; i++) {
            if (s->list[i].atom == request->target && s->list[i].data) found = &s->list[i];
        }
        if (!found) {
            property = XCB_NONE; /* refused: not offered, or a file that could not be read */
        } else if (found->length <= s->chunk) {
            xcb_change_property(c, XCB_PROP_MODE_REPLACE, request->requestor, property, found->atom, 8, found->length, found->data);
        } else {
            uint32_t events = XCB_EVENT_MASK_PROPERTY_CHANGE;
            xcb_change_window_attributes(c, request->requestor, XCB_CW_EVENT_MASK, &events);
            xcb_change_property(c, XCB_PROP_MODE_REPLACE, request->requestor, property, s->incr, 32, 1, &found->length);
            transfer *grown = realloc(*transfers, (*transfer_count + 1) * sizeof **transfers);
            if (!grown) {
                property = XCB_NONE;
            } else {
                *transfers = grown;
                (*transfers)[(*transfer_count)++] = (transfer){request->requestor, property, found, 0};
            }
        }
    }
    selection_notify(c, request, property);
}

/* The background server's life: serve until every selection is lost (and every INCR
 * transfer done), the lifetime ends, or the X server goes away. */
static void serve(server *s, unsigned lifetime) {
    xcb_connection_t *c = s->connection;
    for (uint32_t i = 0; i < s->count; i++) {
        served *target = &s->list[i];
        if (target->file < 0) continue;
        struct stat info;
        unsigned char *bytes = NULL;
        if (fstat(target->file, &info) == 0 && info.st_size <= 0x7FFFFFFF && (bytes = malloc(info.st_size ? (size_t)info.st_size : 1)) &&
            read_exactly(target->file, bytes, (size_t)info.st_size) == 0) {
            target->data = bytes;
            target->length = (uint32_t)info.st_size;
        } else {
            free(bytes);
        }
        close(target->file);
    }

    transfer *transfers = NULL;
    size_t transfer_count = 0;
    time_t deadline = lifetime ? time(NULL) + lifetime : 0;
    struct pollfd descriptor = {.fd = xcb_get_file_descriptor(c), .events = POLLIN};
    for (;;) {
        xcb_flush(c);
        xcb_generic_event_t *event = xcb_poll_for_event(c);
        if (!event) {
            if (xcb_connection_has_error(c)) return;
            int wait = deadline ? (int)((deadline - time(NULL)) * 1000) : -1;
            if (deadline && wait <= 0) return;
            poll(&descriptor, 1, wait);
            continue;
        }
        switch (event->response_type & 0x7F) {
        case XCB_SELECTION_CLEAR:
            if (--s->owned <= 0 && transfer_count == 0) return;
            break;
        case XCB_SELECTION_REQUEST:
            answer(s, (xcb_selection_request_event_t *)event, &transfers, &transfer_count);
            break;
        case XCB_PROPERTY_NOTIFY: {
            xcb_property_notify_event_t *notice = (xcb_property_notify_event_t *)event;
            if (notice->state != XCB_PROPERTY_DELETE) break;
            for (size_t i = 0; i < transfer_count; i++) {
                transfer *t = &transfers[i];
                if (t->requestor != notice->window || t->property != notice->atom) continue;
                uint32_t chunk = t->target->length - t->offset;
                if (chunk > s->chunk) chunk = s->chunk;
                xcb_change_property(c, XCB_PROP_MODE_REPLACE, t->requestor, t->property, t->target->atom, 8, chunk, t->target->data + t->offset);
                t->offset += chunk;
                if (chunk == 0) { /* the empty chunk ends the transfer */
                    uint32_t none = XCB_EVENT_MASK_NO_EVENT;
                    xcb_change_window_attributes(c, t->requestor, XCB_CW_EVENT_MASK, &none);
                    transfers[i] = transfers[--transfer_count];
                    if (s->owned <= 0 && transfer_count == 0) {
                        xcb_flush(c);
                        return;
                    }
                }
                break;
            }
            break;
        }
        default:
            break;
        }
        free(event);
    }
}

/* Closes every descriptor but `keep` (sorted, ascending) from 3 up: a process that
 * outlives actshare must not hold its pipes or its terminal open. */
static void close_all_but(const int *keep, size_t count) {
    int next = 3;
    for (size_t i = 0; i < count; i++) {
        if (keep[i] < next) continue;
        if (keep[i] > next) close_range((unsigned)next, (unsigned)keep[i] - 1, 0);
        next = keep[i] + 1;
    }
    close_range((unsigned)next, ~0U, 0);
}

static int compare_fds(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* Servers this process started that may have exited: reaped at the next copy, so that a
 * long-lived host (the daemon) keeps no more than the latest ones as zombies. One fork,
 * not two: a copy is on the clock, and an actshare command exits right after anyway. */
static pid_t started[64];
static size_t started_count;

static void reap_exited_servers(void) {
    size_t kept = 0;
    for (size_t i = 0; i < started_count; i++) {
        if (waitpid(started[i], NULL, WNOHANG) == 0) started[kept++] = started[i];
    }
    started_count = kept;
}

/* Becomes the background server in a child; returns in the caller once it is started. */
static int start_server(server *s, unsigned lifetime, actshare_session *session) {
    reap_exited_servers();
    /* Closed by the child once it has a session of its own: in a sandboxed helper only a
     * process in its own session outlives the call (background: true). */
    int ready[2] = {-1, -1};
    if (pipe2(ready, O_CLOEXEC) != 0) ready[0] = ready[1] = -1;
    pid_t child = fork();
    if (child < 0) {
        if (ready[0] >= 0) close(ready[0]), close(ready[1]);
        session->set_error(session, "X11 clipboard: cannot start the background server (fork failed)");
        return -1;
    }
    if (child == 0) {
        setsid(); /* out of the caller's session: a closed terminal must not stop it */
        if (ready[1] >= 0) close(ready[1]);
        prctl(PR_SET_NAME, SERVER_NAME);
        /* The caller's handlers (actshare's cancellation flag) mean nothing here: a
         * signal stops the server, and a vanished X server is an error, not SIGPIPE. */
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        int stopping[] = {SIGINT, SIGTERM, SIGHUP, SIGUSR1};
        for (size_t i = 0; i < sizeof stopping / sizeof *stopping; i++) signal(stopping[i], SIG_DFL);
        signal(SIGPIPE, SIG_IGN);
        int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (null_fd >= 0) {
            dup2(null_fd, 0);
            dup2(null_fd, 1);
            dup2(null_fd, 2);
        }
        int keep[1 + CLIPBOARD_MAX_TARGETS], kept = 0;
        keep[kept++] = xcb_get_file_descriptor(s->connection);
        for (uint32_t i = 0; i < s->count; i++) {
            if (s->list[i].file >= 0) keep[kept++] = s->list[i].file;
        }
        qsort(keep, (size_t)kept, sizeof *keep, compare_fds);
        close_all_but(keep, (size_t)kept);
        serve(s, lifetime);
        _exit(0);
    }
    if (ready[0] >= 0) {
        close(ready[1]);
        char none;
        while (read(ready[0], &none, 1) < 0 && errno == EINTR) {}
        close(ready[0]);
    }
    if (started_count < sizeof started / sizeof *started) started[started_count++] = child;
    /* The connection is the server's now: close our copy of its socket without a word to
     * the X server (xcb_disconnect would say nothing either, but its memory is the
     * server's to free). */
    close(xcb_get_file_descriptor(s->connection));
    for (uint32_t i = 0; i < s->count; i++) {
        if (s->list[i].file >= 0) close(s->list[i].file);
    }
    return 0;
}

static int fail(server *s, actshare_session *session, const char *message) {
    char text[600];
    snprintf(text, sizeof text, "X11 clipboard: %s", message);
    session->set_error(session, text);
    for (uint32_t i = 0; i < s->count; i++) {
        if (s->list[i].file >= 0) close(s->list[i].file);
    }
    if (s->connection) xcb_disconnect(s->connection);
    return -1;
}

int copy_x11(const targets *t, unsigned selections, unsigned lifetime, actshare_session *session) {
    server s = {0};
    s.count = (uint32_t)t->count;
    for (uint32_t i = 0; i < s.count; i++) {
        s.list[i].file = -1;
        if (t->list[i].is_file) {
            /* Opened now, so that an unreadable file is reported; read once serving. */
            s.list[i].file = open(t->list[i].data.bytes, O_RDONLY | O_CLOEXEC);
            if (s.list[i].file < 0) {
                char message[4200];
                snprintf(message, sizeof message, "cannot read %s: %s", t->list[i].data.bytes, strerror(errno));
                return fail(&s, session, message);
            }
        } else {
            s.list[i].data = (const unsigned char *)t->list[i].data.bytes;
            s.list[i].length = (uint32_t)t->list[i].data.length;
        }
    }

    int screen_number;
    s.connection = xcb_connect(NULL, &screen_number);
    if (xcb_connection_has_error(s.connection)) {
        char message[600];
        snprintf(message, sizeof message, "cannot connect to the X display %s", getenv("DISPLAY") ? getenv("DISPLAY") : "(DISPLAY is not set)");
        return fail(&s, session, message);
    }
    xcb_connection_t *c = s.connection;
    xcb_screen_iterator_t screens = xcb_setup_roots_iterator(xcb_get_setup(c));
    for (int i = 0; i < screen_number; i++) xcb_screen_next(&screens);
    s.window = xcb_generate_id(c);
    uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
    xcb_create_window(c, XCB_COPY_FROM_PARENT, s.window, screens.data->root, 0, 0, 1, 1, 0, XCB_WINDOW_CLASS_INPUT_ONLY,
                      screens.data->root_visual, XCB_CW_EVENT_MASK, &mask);

    /* A real timestamp for the ownership (ICCCM forbids CurrentTime): append nothing to a
     * property of our own window (WM_NAME: a predefined atom, so no round trip to intern
     * it) and take the time of the PropertyNotify. The atoms are asked for in the same
     * round trip: every request goes out together, then the replies and the event come. */
    xcb_change_property(c, XCB_PROP_MODE_APPEND, s.window, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8, 0, "");
    const char *fixed[] = {"CLIPBOARD", "TARGETS", "TIMESTAMP", "INCR"};
    enum { FIXED = 4 };
    xcb_intern_atom_cookie_t cookies[FIXED + CLIPBOARD_MAX_TARGETS];
    for (int i = 0; i < FIXED; i++) cookies[i] = xcb_intern_atom(c, 0, (uint16_t)strlen(fixed[i]), fixed[i]);
    for (uint32_t i = 0; i < s.count; i++) cookies[FIXED + i] = xcb_intern_atom(c, 0, (uint16_t)strlen(t->list[i].name), t->list[i].name);
    xcb_atom_t atoms[FIXED + CLIPBOARD_MAX_TARGETS];
    int refused = 0;
    for (uint32_t i = 0; i < FIXED + s.count; i++) {
        xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(c, cookies[i], NULL);
        refused |= !reply;
        atoms[i] = reply ? reply->atom : XCB_NONE;
        free(reply);
    }
    if (refused) return fail(&s, session, "the X server refused an atom");
    xcb_atom_t clipboard = atoms[0];
    s.targets_atom = atoms[1];
    s.timestamp_atom = atoms[2];
    s.incr = atoms[3];
    for (uint32_t i = 0; i < s.count; i++) s.list[i].atom = atoms[FIXED + i];
    s.time = XCB_CURRENT_TIME;
    xcb_generic_event_t *event;
    while (s.time == XCB_CURRENT_TIME && (event = xcb_wait_for_event(c))) {
        if ((event->response_type & 0x7F) == XCB_PROPERTY_NOTIFY) s.time = ((xcb_property_notify_event_t *)event)->time;
        free(event);
    }
    if (s.time == XCB_CURRENT_TIME) return fail(&s, session, "the X server closed the connection");

    /* Chunks over 256 KiB need BIG-REQUESTS; asking for the maximum turns it on, at the
     * cost of two round trips, so only when a target may need it. */
    s.chunk = 1u << 17;
    for (uint32_t i = 0; i < s.count; i++) {
        if (s.list[i].file >= 0 || s.list[i].length > s.chunk) {
            uint32_t maximum = xcb_get_maximum_request_length(c) * 4u;
            s.chunk = maximum > INCR_CHUNK + 4096 ? INCR_CHUNK : maximum - 4096;
            break;
        }
    }

    /* Take every selection, then confirm them all in one round trip. */
    xcb_atom_t owned[2];
    int owned_count = 0;
    if (selections & SELECTION_CLIPBOARD) owned[owned_count++] = clipboard;
    if (selections & SELECTION_PRIMARY) owned[owned_count++] = XCB_ATOM_PRIMARY;
    xcb_get_selection_owner_cookie_t checks[2];
    for (int i = 0; i < owned_count; i++) xcb_set_selection_owner(c, s.window, owned[i], s.time);
    for (int i = 0; i < owned_count; i++) checks[i] = xcb_get_selection_owner(c, owned[i]);
    int ours = 1;
    for (int i = 0; i < owned_count; i++) {
        xcb_get_selection_owner_reply_t *reply = xcb_get_selection_owner_reply(c, checks[i], NULL);
        ours &= reply && reply->owner == s.window;
        free(reply);
    }
    if (!ours) return fail(&s, session, "another client kept the selection");
    s.owned = owned_count;
    return start_server(&s, lifetime, session);
}
