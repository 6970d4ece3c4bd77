/*
 * endless-incr SECONDS: an X client that owns the CLIPBOARD and answers a paste of
 * UTF8_STRING by INCR that never ends: one byte 400 ms after each chunk is taken (within
 * any per-chunk limit), never the empty chunk that ends it. Exits after SECONDS. For the test that the
 * clipboard agent bounds a whole read (ClipboardAgentTests).
 */
#include <xcb/xcb.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static xcb_atom_t atom(xcb_connection_t *c, const char *name) {
    xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, (uint16_t)strlen(name), name), NULL);
    xcb_atom_t value = reply ? reply->atom : XCB_NONE;
    free(reply);
    return value;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: endless-incr SECONDS\n");
        return 64;
    }
    time_t end = time(NULL) + atoi(argv[1]);
    xcb_connection_t *c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(c)) return 1;
    xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    xcb_window_t window = xcb_generate_id(c);
    uint32_t events = XCB_EVENT_MASK_PROPERTY_CHANGE;
    xcb_create_window(c, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, 1, 1, 0, XCB_WINDOW_CLASS_INPUT_ONLY, screen->root_visual,
                      XCB_CW_EVENT_MASK, &events);
    xcb_atom_t clipboard = atom(c, "CLIPBOARD"), targets = atom(c, "TARGETS"), utf8 = atom(c, "UTF8_STRING"), incr = atom(c, "INCR");
    xcb_set_selection_owner(c, window, clipboard, XCB_CURRENT_TIME);
    xcb_flush(c);
    xcb_window_t requestor = XCB_NONE;
    xcb_atom_t property = XCB_NONE;
    int due = 0; /* a chunk was taken: the next is owed */
    while (time(NULL) < end) {
        struct pollfd readable = {.fd = xcb_get_file_descriptor(c), .events = POLLIN};
        poll(&readable, 1, 400);
        xcb_generic_event_t *event;
        while ((event = xcb_poll_for_event(c))) {
            if ((event->response_type & 0x7F) == XCB_SELECTION_REQUEST) {
                xcb_selection_request_event_t *request = (xcb_selection_request_event_t *)event;
                xcb_atom_t answered = request->property;
                if (request->target == targets) {
                    xcb_atom_t list[] = {targets, utf8};
                    xcb_change_property(c, XCB_PROP_MODE_REPLACE, request->requestor, request->property, XCB_ATOM_ATOM, 32, 2, list);
                } else if (request->target == utf8) {
                    uint32_t size = 1 << 20, watch = XCB_EVENT_MASK_PROPERTY_CHANGE;
                    xcb_change_window_attributes(c, request->requestor, XCB_CW_EVENT_MASK, &watch);
                    xcb_change_property(c, XCB_PROP_MODE_REPLACE, request->requestor, request->property, incr, 32, 1, &size);
                    requestor = request->requestor, property = request->property;
                } else {
                    answered = XCB_NONE;
                }
                xcb_selection_notify_event_t notify = {.response_type = XCB_SELECTION_NOTIFY, .time = request->time, .requestor = request->requestor,
                                                       .selection = request->selection, .target = request->target, .property = answered};
                xcb_send_event(c, 0, request->requestor, XCB_EVENT_MASK_NO_EVENT, (const char *)&notify);
            } else if ((event->response_type & 0x7F) == XCB_PROPERTY_NOTIFY) {
                xcb_property_notify_event_t *notice = (xcb_property_notify_event_t *)event;
                if (notice->window == requestor && notice->atom == property && notice->state == XCB_PROPERTY_DELETE) due = 1;
            }
            free(event);
        }
        /* The next byte, after the poll's pause: a chunk never long in coming, never the last. */
        if (due) xcb_change_property(c, XCB_PROP_MODE_REPLACE, requestor, property, utf8, 8, 1, "x");
        due = 0;
        xcb_flush(c);
    }
    return 0;
}
