/* The X11 back end's loop: XFixes tells who owns the CLIPBOARD; the reader reads it; the
 * owner takes it for another device's offer. Ends when the daemon closes its socket (0)
 * or the X server goes away (1). */
#include "agent.h"

#include <xcb/xfixes.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A copy whose owner did not answer a conversion in time is read again while the same
 * owner still owns the selection, after 0.25, 0.5, 1, 2 and 4 s: an owner serving a
 * clipboard manager's paste of the same copy (they read every copy as it is made)
 * answers nobody else until it is done, and then answers our late request, which
 * reader_drop_late lets it finish. After the last, what was read is said (and not
 * answered, if nothing was). A transfer that stalls once started is not read again. */
#define READ_ATTEMPTS 6
#define FIRST_RETRY_MS 250

typedef struct retry {
    xcb_window_t owner; /* XCB_NONE: nothing to read again */
    xcb_atom_t selection;
    int attempts;
    long long at;
} retry;

/* Reads `selection` (owned by `owner`) and reports it, or plans to read it again. */
static void read_copy(display *d, int fd, uint64_t limit, xcb_window_t owner, xcb_atom_t selection, int attempts, retry *again) {
    reading r;
    int result = reader_read(d, selection, limit, attempts + 1 < READ_ATTEMPTS, &r);
    again->owner = XCB_NONE;
    if ((result == READ_UNANSWERED || (result == 0 && r.unanswered)) && attempts + 1 < READ_ATTEMPTS) {
        reading_free(&r);
        *again = (retry){owner, selection, attempts + 1, agent_now_ms() + ((long long)FIRST_RETRY_MS << attempts)};
        return;
    }
    report_reading(fd, result, &r, 0);
}

/* The daemon's requests, for frames_receive. */
typedef struct x11 {
    display *d;
    owner *o;
    uint64_t limit;
} x11;

static int x11_read(void *self, reading *out) {
    x11 *x = self;
    return reader_read(x->d, x->d->clipboard, x->limit, 0, out);
}

static int x11_own(void *self, const char *id, offered_target *targets, size_t count) {
    x11 *x = self;
    size_t kept = 0;
    for (size_t i = 0; i < count; i++) {
        if ((targets[i].atom = display_atom(x->d, targets[i].name))) targets[kept++] = targets[i];
    }
    return owner_take(x->o, id, targets, kept);
}

static void x11_release(void *self, const char *id) { owner_release(((x11 *)self)->o, id); }

static void x11_fetched(void *self, const fetched *piece) { owner_fetched(((x11 *)self)->o, piece); }

static const backend x11_backend = {x11_read, x11_own, x11_release, x11_fetched};

int x11_run(int fd, int watch, int primary, uint64_t limit) {
    display d;
    int opened = display_open(&d);
    if (opened != 0) {
        fprintf(stderr, opened == -2 ? "actshare-clipboard-agent: the X server has no XFixes extension\n"
                                     : "actshare-clipboard-agent: cannot connect to the X display %s\n",
                getenv("DISPLAY") ? getenv("DISPLAY") : "(DISPLAY is not set)");
        return 1;
    }
    d.primary = primary;
    const uint32_t changes = XCB_XFIXES_SELECTION_EVENT_MASK_SET_SELECTION_OWNER | XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_WINDOW_DESTROY |
                             XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_CLIENT_CLOSE;
    xcb_xfixes_select_selection_input(d.connection, d.window, d.clipboard, changes);
    /* PRIMARY is watched only in watch mode: a push reads the CLIPBOARD. */
    if (primary && watch) xcb_xfixes_select_selection_input(d.connection, d.window, XCB_ATOM_PRIMARY, changes);
    xcb_flush(d.connection);
    owner *o = owner_new(&d, fd);
    if (!o) return 1;
    x11 self = {&d, o, limit};
    char name[300];
    snprintf(name, sizeof name, "X11 display %s", getenv("DISPLAY") ? getenv("DISPLAY") : "");
    report_ready(fd, name);

    struct pollfd descriptors[2] = {{.fd = xcb_get_file_descriptor(d.connection), .events = POLLIN}, {.fd = fd, .events = POLLIN}};
    retry again = {XCB_NONE, XCB_NONE, 0, 0};
    for (;;) {
        xcb_flush(d.connection);
        xcb_generic_event_t *event = display_next_queued(&d);
        if (!event) event = xcb_poll_for_event(d.connection);
        if (event) {
            if ((event->response_type & 0x7F) == d.xfixes_event + XCB_XFIXES_SELECTION_NOTIFY) {
                xcb_xfixes_selection_notify_event_t *change = (xcb_xfixes_selection_notify_event_t *)event;
                /* Our own taking is no news (an offer is never offered back). */
                int watched = change->selection == d.clipboard || (primary && change->selection == XCB_ATOM_PRIMARY);
                if (watched && !owner_is_ours(o, change->owner, change->selection_timestamp)) {
                    if (!watch) {
                        report_simple(fd, "owner-changed");
                    } else if (change->owner == XCB_NONE) {
                        again.owner = XCB_NONE;
                        report_cleared(fd);
                    } else {
                        /* A new copy: the one that waited to be read again is gone. */
                        read_copy(&d, fd, limit, change->owner, change->selection, 0, &again);
                    }
                }
            } else {
                if ((event->response_type & 0x7F) == XCB_PROPERTY_NOTIFY) reader_drop_late(&d, (xcb_property_notify_event_t *)event);
                owner_handle(o, event);
            }
            free(event);
            continue;
        }
        if (xcb_connection_has_error(d.connection)) {
            fprintf(stderr, "actshare-clipboard-agent: the X connection broke (error %d)\n", xcb_connection_has_error(d.connection));
            return 1;
        }
        if (again.owner != XCB_NONE && agent_now_ms() >= again.at) {
            xcb_get_selection_owner_reply_t *now = xcb_get_selection_owner_reply(d.connection, xcb_get_selection_owner(d.connection, again.selection), NULL);
            int same = now && now->owner == again.owner;
            free(now);
            if (same) {
                read_copy(&d, fd, limit, again.owner, again.selection, again.attempts, &again);
            } else {
                again.owner = XCB_NONE;
            }
            continue;
        }
        long long wait = again.owner == XCB_NONE ? 1000 : again.at - agent_now_ms();
        descriptors[0].revents = descriptors[1].revents = 0;
        int polled = poll(descriptors, 2, wait < 0 ? 0 : wait > 1000 ? 1000 : (int)wait);
        if (polled < 0 && errno != EINTR) {
            perror("actshare-clipboard-agent: poll");
            return 1;
        }
        if (polled == 0) agent_idle();
        owner_expire(o);
        if ((descriptors[1].revents & (POLLIN | POLLHUP | POLLERR)) && frames_receive(fd, limit, &x11_backend, &self) != 0) return 0;
    }
}
