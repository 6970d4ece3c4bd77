/*
 * The answer to a SelectionRequest (ICCCM 2.2): a SelectionNotify sent to the requestor,
 * naming the property that holds the data, or None for a refusal. Shared by Copy's
 * server (x11.c) and the daemon's clipboard agent (Sources/actshare-clipboard-agent).
 */
#ifndef ACTSHARE_SELECTION_NOTIFY_H
#define ACTSHARE_SELECTION_NOTIFY_H

#include <xcb/xcb.h>

#include <string.h>

static inline void selection_notify(xcb_connection_t *connection, const xcb_selection_request_event_t *request, xcb_atom_t property) {
    /* xcb_send_event copies 32 bytes: the event goes in a buffer of that size. */
    char buffer[32];
    memset(buffer, 0, sizeof buffer);
    xcb_selection_notify_event_t *event = (xcb_selection_notify_event_t *)buffer;
    event->response_type = XCB_SELECTION_NOTIFY;
    event->time = request->time;
    event->requestor = request->requestor;
    event->selection = request->selection;
    event->target = request->target;
    event->property = property;
    xcb_send_event(connection, 0, request->requestor, XCB_EVENT_MASK_NO_EVENT, buffer);
}

#endif
