/* The X connection: atoms, our window, XFixes, and waiting for one event while the others
 * queue (reading a selection is a conversation in the middle of the event loop). */
#include "agent.h"

#include <xcb/xfixes.h>

#include <poll.h>
#include <stdlib.h>
#include <string.h>

/* Over this, data goes by INCR: 1 MiB transfers fastest under Xvfb (docs/CLIPBOARD.md). */
#define INCR_CHUNK (1u << 20)

xcb_atom_t display_atom(display *d, const char *name) {
    xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(d->connection, xcb_intern_atom(d->connection, 0, (uint16_t)strlen(name), name), NULL);
    xcb_atom_t atom = reply ? reply->atom : XCB_NONE;
    free(reply);
    return atom;
}

int display_atom_name(display *d, xcb_atom_t atom, char *name, size_t size) {
    xcb_get_atom_name_reply_t *reply = xcb_get_atom_name_reply(d->connection, xcb_get_atom_name(d->connection, atom), NULL);
    if (!reply) return -1;
    int length = xcb_get_atom_name_name_length(reply);
    if ((size_t)length >= size) {
        free(reply);
        return -1;
    }
    memcpy(name, xcb_get_atom_name_name(reply), (size_t)length);
    name[length] = 0;
    free(reply);
    return 0;
}

int display_open(display *d) {
    memset(d, 0, sizeof *d);
    int screen_number;
    d->connection = xcb_connect(NULL, &screen_number);
    if (xcb_connection_has_error(d->connection)) return -1;
    xcb_connection_t *c = d->connection;
    xcb_screen_iterator_t screens = xcb_setup_roots_iterator(xcb_get_setup(c));
    for (int i = 0; i < screen_number; i++) xcb_screen_next(&screens);
    d->root = screens.data->root;
    d->window = xcb_generate_id(c);
    uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
    xcb_create_window(c, XCB_COPY_FROM_PARENT, d->window, d->root, 0, 0, 1, 1, 0, XCB_WINDOW_CLASS_INPUT_ONLY, screens.data->root_visual,
                      XCB_CW_EVENT_MASK, &mask);
    const char *title = "actshare clipboard";
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, d->window, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8, (uint32_t)strlen(title), title);

    d->clipboard = display_atom(d, "CLIPBOARD");
    d->targets = display_atom(d, "TARGETS");
    d->timestamp = display_atom(d, "TIMESTAMP");
    d->incr = display_atom(d, "INCR");
    d->reading = display_atom(d, "ACTSHARE_SELECTION");

    const xcb_query_extension_reply_t *xfixes = xcb_get_extension_data(c, &xcb_xfixes_id);
    if (!xfixes || !xfixes->present) return -2;
    d->xfixes_event = xfixes->first_event;
    xcb_xfixes_query_version_reply_t *version = xcb_xfixes_query_version_reply(c, xcb_xfixes_query_version(c, 5, 0), NULL);
    free(version);

    uint32_t maximum = xcb_get_maximum_request_length(c) * 4u;
    d->chunk = maximum > INCR_CHUNK + 4096 ? INCR_CHUNK : maximum - 4096;
    return xcb_connection_has_error(c) ? -1 : 0;
}

xcb_generic_event_t *display_wait(display *d, int (*match)(const xcb_generic_event_t *, const void *), const void *context,
                                  int milliseconds) {
    long long deadline = agent_now_ms() + milliseconds;
    struct pollfd descriptor = {.fd = xcb_get_file_descriptor(d->connection), .events = POLLIN};
    for (;;) {
        xcb_flush(d->connection);
        xcb_generic_event_t *event = xcb_poll_for_event(d->connection);
        if (event) {
            if (match(event, context)) return event;
            if (d->queued_count < sizeof d->queued / sizeof *d->queued) {
                d->queued[d->queued_count++] = event;
            } else {
                free(event); /* bounded: a flood of events while reading loses the oldest news */
            }
            continue;
        }
        if (xcb_connection_has_error(d->connection)) return NULL;
        long long left = deadline - agent_now_ms();
        if (left <= 0) return NULL;
        poll(&descriptor, 1, (int)left);
    }
}

xcb_generic_event_t *display_next_queued(display *d) {
    if (d->queued_count == 0) return NULL;
    xcb_generic_event_t *first = d->queued[0];
    memmove(d->queued, d->queued + 1, (d->queued_count - 1) * sizeof *d->queued);
    d->queued_count--;
    return first;
}

static int is_our_property_change(const xcb_generic_event_t *event, const void *context) {
    const display *d = context;
    return (event->response_type & 0x7F) == XCB_PROPERTY_NOTIFY && ((const xcb_property_notify_event_t *)event)->window == d->window &&
           ((const xcb_property_notify_event_t *)event)->atom == XCB_ATOM_WM_NAME;
}

xcb_timestamp_t display_now(display *d) {
    /* Appending nothing to a property of our own window makes the server send the time. */
    xcb_change_property(d->connection, XCB_PROP_MODE_APPEND, d->window, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8, 0, "");
    xcb_generic_event_t *event = display_wait(d, is_our_property_change, d, 2000);
    xcb_timestamp_t time = event ? ((xcb_property_notify_event_t *)event)->time : XCB_CURRENT_TIME;
    free(event);
    return time;
}
