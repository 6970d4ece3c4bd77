/* The Wayland clipboard taken for another device's offer (wayland.h): a data-control
 * source lists the offer's targets; when an application pastes one, the compositor hands
 * us a pipe, which waits for the daemon's fetch and is then written as the application
 * reads, never blocking the loop. Pastes are bounded in number and time; a fetch that
 * fails, or an offer given up, closes the waiting pipes at once (the paste gets nothing). */
#include "wayland.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct paste {
    int fd;
    size_t target;
    uint32_t offset;
    long long since;
    int ended; /* closed by serve: handlers only mark, serve's descriptors stay in step */
} paste;

struct wayland_owner {
    wayland *w;
    char id[64];
    offered_target targets[AGENT_MAX_TARGETS];
    size_t count;
    struct zwlr_data_control_source_v1 *source;  /* while it holds the clipboard */
    struct zwlr_data_control_source_v1 *primary; /* while it holds PRIMARY (w->primary) */
    int releasing, releasing_primary;            /* the next cleared selection is our giving up */
    paste pastes[AGENT_MAX_PASTES];
    size_t paste_count;
};

/* Ends the pastes still waiting for bytes: they get nothing. */
static void end_waiting(wayland_owner *o) {
    for (size_t i = 0; i < o->paste_count; i++) {
        if (!offered_ready(&o->targets[o->pastes[i].target])) o->pastes[i].ended = 1;
    }
}

static void source_send(void *data, struct zwlr_data_control_source_v1 *source, const char *type, int32_t fd) {
    wayland_owner *o = data;
    long index = -1;
    for (size_t i = 0; i < o->count && (source == o->source || source == o->primary); i++) {
        if (strcmp(o->targets[i].name, type) == 0) index = (long)i;
    }
    if (index < 0 || o->targets[index].failed || o->paste_count == AGENT_MAX_PASTES || fcntl(fd, F_SETFL, O_NONBLOCK) != 0) {
        close(fd);
        return;
    }
    o->pastes[o->paste_count++] = (paste){fd, (size_t)index, 0, agent_now_ms(), 0};
    offered_target *t = &o->targets[index];
    if (!offered_ready(t) && !t->fetching) {
        report_fetch(o->w->daemon, o->id, t);
        offer_mark_fetching(o->targets, o->count, t->hash);
    }
}

static void source_cancelled(void *data, struct zwlr_data_control_source_v1 *source) {
    wayland_owner *o = data;
    zwlr_data_control_source_v1_destroy(source);
    if (source == o->primary) o->primary = NULL; /* PRIMARY taken by another: news of its own */
    if (source != o->source) return;             /* that, or an earlier offer's, replaced by ours */
    o->source = NULL;
    end_waiting(o);
    report_offer(o->w->daemon, "released", o->id, -1);
}

static const struct zwlr_data_control_source_v1_listener source_listener = {source_send, source_cancelled};

wayland_owner *wayland_owner_new(wayland *w) {
    wayland_owner *o = calloc(1, sizeof *o);
    if (o) o->w = w;
    return o;
}

/* A source listing the offer's targets. */
static struct zwlr_data_control_source_v1 *new_source(wayland_owner *o) {
    struct zwlr_data_control_source_v1 *source = zwlr_data_control_manager_v1_create_data_source(o->w->manager);
    zwlr_data_control_source_v1_add_listener(source, &source_listener, o);
    for (size_t i = 0; i < o->count; i++) zwlr_data_control_source_v1_offer(source, o->targets[i].name);
    return source;
}

int wayland_owner_take(wayland_owner *o, const char *id, offered_target *targets, size_t count) {
    /* The earlier offer's pastes end here (an offer replaced is gone); its source is
     * cancelled by the compositor when the new one is set, and destroyed then. */
    for (size_t i = 0; i < o->paste_count; i++) close(o->pastes[i].fd);
    o->paste_count = 0;
    offer_forget(o->targets, o->count);
    snprintf(o->id, sizeof o->id, "%s", id);
    o->count = count < AGENT_MAX_TARGETS ? count : AGENT_MAX_TARGETS;
    memcpy(o->targets, targets, o->count * sizeof *targets);
    o->source = new_source(o);
    zwlr_data_control_device_v1_set_selection(o->w->device, o->source);
    if (o->w->primary) { /* a source serves one selection: PRIMARY gets one of its own */
        o->primary = new_source(o);
        zwlr_data_control_device_v1_set_primary_selection(o->w->device, o->primary);
    }
    return wl_display_flush(o->w->display) < 0 && errno != EAGAIN ? -1 : 0;
}

void wayland_owner_release(wayland_owner *o, const char *id) {
    if (!o->source || strcmp(o->id, id) != 0) return;
    /* Given up, not handed on: the clipboard is empty, as on the device that cleared it. */
    zwlr_data_control_device_v1_set_selection(o->w->device, NULL);
    zwlr_data_control_source_v1_destroy(o->source);
    o->source = NULL;
    o->releasing = 1;
    if (o->primary) {
        zwlr_data_control_device_v1_set_primary_selection(o->w->device, NULL);
        zwlr_data_control_source_v1_destroy(o->primary);
        o->primary = NULL;
        o->releasing_primary = 1;
    }
    end_waiting(o);
    wl_display_flush(o->w->display);
}

void wayland_owner_fetched(wayland_owner *o, const fetched *piece) {
    if (strcmp(o->id, piece->offer) == 0) offer_receive(o->targets, o->count, piece);
}

int wayland_owner_is_ours(wayland_owner *o, int primary, int cleared) {
    if (!cleared) return (primary ? o->primary : o->source) != NULL;
    int *releasing = primary ? &o->releasing_primary : &o->releasing;
    int ours = *releasing;
    *releasing = 0;
    return ours;
}

int wayland_owner_holds(const wayland_owner *o) { return o->source != NULL; }

size_t wayland_owner_descriptors(wayland_owner *o, struct pollfd *fds, size_t room) {
    size_t count = 0;
    for (; count < o->paste_count && count < room; count++) {
        const paste *p = &o->pastes[count];
        /* A waiting paste is watched too: its reader may go (POLLERR) before the bytes come. */
        fds[count] = (struct pollfd){.fd = p->fd, .events = offered_ready(&o->targets[p->target]) ? POLLOUT : 0};
    }
    return count;
}

/* Writes what the pipe takes now; 1 when the paste is done (all written, or its reader gone). */
static int write_some(wayland_owner *o, paste *p) {
    const offered_target *t = &o->targets[p->target];
    while (p->offset < t->size) {
        ssize_t written = write(p->fd, t->data + p->offset, t->size - p->offset);
        if (written < 0 && errno == EINTR) continue;
        if (written < 0) return errno != EAGAIN;
        p->offset += (uint32_t)written;
    }
    return 1;
}

void wayland_owner_serve(wayland_owner *o, const struct pollfd *fds, size_t count) {
    long long now = agent_now_ms();
    size_t kept = 0;
    for (size_t i = 0; i < o->paste_count; i++) {
        paste *p = &o->pastes[i];
        const offered_target *t = &o->targets[p->target];
        short events = i < count ? fds[i].revents : 0;
        int done = p->ended || t->failed || now - p->since > AGENT_PASTE_MS;
        if (!done && offered_ready(t) && (events & POLLOUT || t->size == 0)) done = write_some(o, p);
        if (!done && (events & (POLLERR | POLLHUP | POLLNVAL))) done = 1;
        if (done) {
            close(p->fd);
        } else {
            o->pastes[kept++] = *p;
        }
    }
    o->paste_count = kept;
}
