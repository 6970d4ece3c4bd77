/* The clipboard taken for another device's offer: every target it lists is offered at
 * once, and a target's bytes are asked of the daemon only when an application pastes it
 * (the daemon fetches them from the device). Requests wait for the bytes, bounded in
 * number and time; a fetch that fails answers them with nothing, at once. */
#include "agent.h"
#include "selection_notify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* At most this many pastes wait for bytes, and each at most this long. */
#define MAX_PENDING 64
#define PENDING_MS 30000
/* At most this many INCR transfers run at once. */
#define MAX_TRANSFERS 16

typedef struct pending {
    xcb_selection_request_event_t request;
    long long since;
} pending;

typedef struct transfer {
    xcb_window_t requestor;
    xcb_atom_t property;
    size_t target;
    uint32_t offset;
} transfer;

struct owner {
    display *d;
    int daemon;
    char id[64];
    offered_target targets[AGENT_MAX_TARGETS];
    size_t count;
    int owning;
    xcb_timestamp_t time;
    xcb_timestamp_t released; /* when it gave the clipboard up itself */
    pending waiting[MAX_PENDING];
    size_t waiting_count;
    transfer transfers[MAX_TRANSFERS];
    size_t transfer_count;
};

static long long now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

owner *owner_new(display *d, int daemon_fd) {
    owner *o = calloc(1, sizeof *o);
    if (o) o->d = d, o->daemon = daemon_fd;
    return o;
}

static void forget_targets(owner *o) {
    offer_forget(o->targets, o->count);
    o->count = 0;
    o->transfer_count = 0;
}

static void notify(owner *o, const xcb_selection_request_event_t *request, xcb_atom_t property) {
    selection_notify(o->d->connection, request, property);
}

static void refuse(owner *o, const xcb_selection_request_event_t *request) { notify(o, request, XCB_NONE); }

/* Answers with the bytes of target `index`, fetched: in one property, or INCR. */
static void answer_with_data(owner *o, const xcb_selection_request_event_t *request, size_t index) {
    xcb_connection_t *c = o->d->connection;
    offered_target *t = &o->targets[index];
    xcb_atom_t property = request->property == XCB_NONE ? request->target : request->property;
    if (t->size <= o->d->chunk) {
        xcb_change_property(c, XCB_PROP_MODE_REPLACE, request->requestor, property, t->atom, 8, t->size, t->data);
    } else if (o->transfer_count < MAX_TRANSFERS) {
        uint32_t events = XCB_EVENT_MASK_PROPERTY_CHANGE;
        xcb_change_window_attributes(c, request->requestor, XCB_CW_EVENT_MASK, &events);
        xcb_change_property(c, XCB_PROP_MODE_REPLACE, request->requestor, property, o->d->incr, 32, 1, &t->size);
        o->transfers[o->transfer_count++] = (transfer){request->requestor, property, index, 0};
    } else {
        property = XCB_NONE;
    }
    notify(o, request, property);
}

static long find_target(owner *o, xcb_atom_t atom) {
    for (size_t i = 0; i < o->count; i++) {
        if (o->targets[i].atom == atom) return (long)i;
    }
    return -1;
}

static void ask_daemon(owner *o, size_t index) {
    report_fetch(o->daemon, o->id, &o->targets[index]);
    offer_mark_fetching(o->targets, o->count, o->targets[index].hash);
}

static void answer(owner *o, const xcb_selection_request_event_t *request) {
    xcb_connection_t *c = o->d->connection;
    xcb_atom_t property = request->property == XCB_NONE ? request->target : request->property;
    if (!o->owning || (request->selection != o->d->clipboard && !(o->d->primary && request->selection == XCB_ATOM_PRIMARY))) {
        refuse(o, request);
    } else if (request->target == o->d->targets) {
        xcb_atom_t offered[2 + AGENT_MAX_TARGETS] = {o->d->targets, o->d->timestamp};
        for (size_t i = 0; i < o->count; i++) offered[2 + i] = o->targets[i].atom;
        xcb_change_property(c, XCB_PROP_MODE_REPLACE, request->requestor, property, XCB_ATOM_ATOM, 32, (uint32_t)(2 + o->count), offered);
        notify(o, request, property);
    } else if (request->target == o->d->timestamp) {
        xcb_change_property(c, XCB_PROP_MODE_REPLACE, request->requestor, property, XCB_ATOM_INTEGER, 32, 1, &o->time);
        notify(o, request, property);
    } else {
        long index = find_target(o, request->target);
        if (index < 0 || o->targets[index].failed) {
            refuse(o, request);
        } else if (offered_ready(&o->targets[index])) {
            answer_with_data(o, request, (size_t)index);
        } else if (o->waiting_count < MAX_PENDING) {
            o->waiting[o->waiting_count++] = (pending){*request, now_ms()};
            if (!o->targets[index].fetching) ask_daemon(o, (size_t)index);
        } else {
            refuse(o, request);
        }
    }
}

/* Answers the waiting requests whose targets are fetched or failed. */
static void answer_waiting(owner *o) {
    size_t kept = 0;
    for (size_t i = 0; i < o->waiting_count; i++) {
        const xcb_selection_request_event_t *request = &o->waiting[i].request;
        long index = o->owning ? find_target(o, request->target) : -1;
        if (index < 0 || o->targets[index].failed) {
            refuse(o, request);
        } else if (offered_ready(&o->targets[index])) {
            answer_with_data(o, request, (size_t)index);
        } else {
            o->waiting[kept++] = o->waiting[i];
        }
    }
    o->waiting_count = kept;
}

int owner_take(owner *o, const char *id, offered_target *targets, size_t count) {
    xcb_connection_t *c = o->d->connection;
    /* What waited for the offer before is answered with nothing: it is gone. */
    o->owning = 0;
    answer_waiting(o);
    forget_targets(o);
    snprintf(o->id, sizeof o->id, "%s", id);
    if (count > AGENT_MAX_TARGETS) count = AGENT_MAX_TARGETS;
    memcpy(o->targets, targets, count * sizeof *targets);
    o->count = count;
    o->time = display_now(o->d);
    xcb_set_selection_owner(c, o->d->window, o->d->clipboard, o->time);
    if (o->d->primary) xcb_set_selection_owner(c, o->d->window, XCB_ATOM_PRIMARY, o->time);
    xcb_get_selection_owner_reply_t *reply = xcb_get_selection_owner_reply(c, xcb_get_selection_owner(c, o->d->clipboard), NULL);
    o->owning = reply && reply->owner == o->d->window;
    free(reply);
    return o->owning ? 0 : -1;
}

void owner_release(owner *o, const char *id) {
    if (!o->owning || strcmp(o->id, id) != 0) return;
    /* Given up, not handed on: the clipboard is empty, as on the device that cleared it. */
    xcb_set_selection_owner(o->d->connection, XCB_NONE, o->d->clipboard, o->time);
    if (o->d->primary) xcb_set_selection_owner(o->d->connection, XCB_NONE, XCB_ATOM_PRIMARY, o->time);
    o->released = o->time;
    o->owning = 0;
    answer_waiting(o);
}

void owner_fetched(owner *o, const char *id, const char *hash, unsigned char **data, uint32_t length) {
    if (strcmp(o->id, id) != 0) return;
    offer_fill(o->targets, o->count, hash, data, length);
    answer_waiting(o);
}

int owner_is_ours(owner *o, xcb_window_t window, xcb_timestamp_t timestamp) {
    return window == o->d->window || (window == XCB_NONE && o->released != 0 && timestamp == o->released);
}

void owner_expire(owner *o) {
    long long now = now_ms();
    size_t kept = 0;
    for (size_t i = 0; i < o->waiting_count; i++) {
        if (now - o->waiting[i].since > PENDING_MS) {
            refuse(o, &o->waiting[i].request);
        } else {
            o->waiting[kept++] = o->waiting[i];
        }
    }
    o->waiting_count = kept;
}

int owner_handle(owner *o, xcb_generic_event_t *event) {
    switch (event->response_type & 0x7F) {
    case XCB_SELECTION_REQUEST:
        answer(o, (xcb_selection_request_event_t *)event);
        return 1;
    case XCB_SELECTION_CLEAR: {
        xcb_selection_clear_event_t *clear = (xcb_selection_clear_event_t *)event;
        /* PRIMARY taken by another is news of its own (XFixes); the offer is the CLIPBOARD's. */
        if (clear->selection != o->d->clipboard || !o->owning) return 1;
        /* A clear from before this ownership: our own giving up of an earlier offer (the
         * server tells the owner even when it gives the selection to None itself). */
        if (clear->time != XCB_CURRENT_TIME && clear->time < o->time) return 1;
        o->owning = 0;
        answer_waiting(o);
        report_offer(o->daemon, "released", o->id, -1);
        return 1;
    }
    case XCB_PROPERTY_NOTIFY: {
        xcb_property_notify_event_t *notice = (xcb_property_notify_event_t *)event;
        if (notice->state != XCB_PROPERTY_DELETE) return 0;
        for (size_t i = 0; i < o->transfer_count; i++) {
            transfer *t = &o->transfers[i];
            if (t->requestor != notice->window || t->property != notice->atom) continue;
            offered_target *target = &o->targets[t->target];
            uint32_t chunk = target->size - t->offset;
            if (chunk > o->d->chunk) chunk = o->d->chunk;
            xcb_change_property(o->d->connection, XCB_PROP_MODE_REPLACE, t->requestor, t->property, target->atom, 8, chunk,
                                target->data + t->offset);
            t->offset += chunk;
            if (chunk == 0) { /* the empty chunk ends it */
                uint32_t none = XCB_EVENT_MASK_NO_EVENT;
                xcb_change_window_attributes(o->d->connection, t->requestor, XCB_CW_EVENT_MASK, &none);
                o->transfers[i] = o->transfers[--o->transfer_count];
            }
            return 1;
        }
        return 0;
    }
    default:
        return 0;
    }
}
