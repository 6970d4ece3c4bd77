/* The clipboard taken for another device's offer: every target it lists is offered at
 * once, and a target's bytes are asked of the daemon only when an application pastes it
 * (the daemon fetches them from the device). Requests wait for the bytes, bounded in
 * number and time; a fetch that fails answers them with nothing, at once. */
#include "agent.h"
#include "selection_notify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    int stalled; /* the requestor waits for a chunk whose bytes are not here yet */
    long long since; /* its last chunk: a requestor gone quiet (or gone) is dropped */
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
    pending waiting[AGENT_MAX_PASTES];
    size_t waiting_count;
    transfer transfers[MAX_TRANSFERS];
    size_t transfer_count;
};

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

static void end_transfer(owner *o, size_t index);

/* Whether a paste of `t` can start before all of it is here: by INCR, once bytes come. */
static int can_stream(const owner *o, const offered_target *t) { return !t->any_size && t->size > o->d->chunk && t->received > 0; }

/* Answers with the bytes of target `index`, fetched (or, by INCR, arriving): in one
 * property, or INCR. */
static void answer_with_data(owner *o, const xcb_selection_request_event_t *request, size_t index) {
    xcb_connection_t *c = o->d->connection;
    offered_target *t = &o->targets[index];
    xcb_atom_t property = request->property == XCB_NONE ? request->target : request->property;
    if (t->size <= o->d->chunk) {
        xcb_change_property(c, XCB_PROP_MODE_REPLACE, request->requestor, property, t->atom, 8, t->size, t->data);
    } else if (o->transfer_count < MAX_TRANSFERS) {
        /* A requestor that died mid-transfer leaves its window id to the next client: an
         * earlier transfer to the same window and property is over. */
        for (size_t i = o->transfer_count; i-- > 0;) {
            if (o->transfers[i].requestor == request->requestor && o->transfers[i].property == property) end_transfer(o, i);
        }
        uint32_t events = XCB_EVENT_MASK_PROPERTY_CHANGE;
        xcb_change_window_attributes(c, request->requestor, XCB_CW_EVENT_MASK, &events);
        xcb_change_property(c, XCB_PROP_MODE_REPLACE, request->requestor, property, o->d->incr, 32, 1, &t->size);
        o->transfers[o->transfer_count++] = (transfer){request->requestor, property, index, 0, 0, agent_now_ms()};
    } else {
        property = XCB_NONE;
    }
    notify(o, request, property);
}

/* Puts the next INCR chunk of `x`: 1 when the transfer is over (its empty chunk sent, or
 * its target failed), 0 when a chunk went, -1 when it waits for bytes. Until the fetch is
 * whole and checked, the last byte is held back: the paste cannot end before. */
static int send_chunk(owner *o, transfer *x) {
    const offered_target *t = &o->targets[x->target];
    if (t->failed) return 1;
    uint32_t available = t->complete ? t->size : (t->received < t->size ? t->received : t->size - 1);
    if (x->offset >= available && !(t->complete && x->offset == t->size)) {
        x->stalled = 1;
        return -1;
    }
    uint32_t chunk = available - x->offset;
    if (chunk > o->d->chunk) chunk = o->d->chunk;
    xcb_change_property(o->d->connection, XCB_PROP_MODE_REPLACE, x->requestor, x->property, t->atom, 8, chunk, t->data + x->offset);
    x->offset += chunk;
    x->stalled = 0;
    x->since = agent_now_ms();
    return chunk == 0; /* the empty chunk ends it */
}

static void end_transfer(owner *o, size_t index) {
    uint32_t none = XCB_EVENT_MASK_NO_EVENT;
    xcb_change_window_attributes(o->d->connection, o->transfers[index].requestor, XCB_CW_EVENT_MASK, &none);
    o->transfers[index] = o->transfers[--o->transfer_count];
}

/* Transfers that waited for bytes go on (or end, if their target failed). */
static void serve_stalled(owner *o) {
    for (size_t i = o->transfer_count; i-- > 0;) {
        if (o->transfers[i].stalled && send_chunk(o, &o->transfers[i]) == 1) end_transfer(o, i);
    }
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
        } else if (offered_ready(&o->targets[index]) || can_stream(o, &o->targets[index])) {
            answer_with_data(o, request, (size_t)index);
        } else if (o->waiting_count < AGENT_MAX_PASTES) {
            o->waiting[o->waiting_count++] = (pending){*request, agent_now_ms()};
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
        } else if (offered_ready(&o->targets[index]) || can_stream(o, &o->targets[index])) {
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

void owner_fetched(owner *o, const fetched *piece) {
    if (strcmp(o->id, piece->offer) != 0) return;
    offer_receive(o->targets, o->count, piece);
    answer_waiting(o);
    serve_stalled(o);
}

int owner_is_ours(owner *o, xcb_window_t window, xcb_timestamp_t timestamp) {
    return window == o->d->window || (window == XCB_NONE && o->released != 0 && timestamp == o->released);
}

void owner_expire(owner *o) {
    long long now = agent_now_ms();
    for (size_t i = o->transfer_count; i-- > 0;) {
        if (now - o->transfers[i].since > AGENT_PASTE_MS) end_transfer(o, i);
    }
    size_t kept = 0;
    for (size_t i = 0; i < o->waiting_count; i++) {
        if (now - o->waiting[i].since > AGENT_PASTE_MS) {
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
            if (send_chunk(o, t) == 1) end_transfer(o, i);
            return 1;
        }
        return 0;
    }
    default:
        return 0;
    }
}
