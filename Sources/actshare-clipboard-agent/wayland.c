/* The Wayland back end's connection, reader and loop (wayland.h). The compositor tells
 * every new selection as an offer with its MIME types; reading one is a pipe the owner
 * writes into, bounded like an X owner's answer. Ends when the daemon closes its socket
 * (0) or the compositor goes away (1). */
#include "wayland.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void offer_destroy(wayland_offer *offer) {
    if (!offer) return;
    zwlr_data_control_offer_v1_destroy(offer->proxy);
    for (size_t i = 0; i < offer->count; i++) free(offer->types[i]);
    free(offer);
}

static void offer_type(void *data, struct zwlr_data_control_offer_v1 *proxy, const char *type) {
    (void)proxy;
    wayland_offer *offer = data;
    if (offer->count < AGENT_MAX_OFFERED && strlen(type) < 256) {
        char *copy = strdup(type);
        if (copy) offer->types[offer->count++] = copy;
    }
}

static const struct zwlr_data_control_offer_v1_listener offer_listener = {offer_type};

/* Receives `type` into `*data`; -1 if the owner refused or was too slow, -2 if more than
 * `limit` bytes. */
static int receive(wayland *w, wayland_offer *offer, const char *type, uint64_t limit, unsigned char **data, uint32_t *length, char *hash) {
    *data = NULL, *length = 0;
    if (hash) hash[0] = 0;
    int pipe_ends[2];
    if (pipe2(pipe_ends, O_CLOEXEC) != 0) return -1;
    zwlr_data_control_offer_v1_receive(offer->proxy, type, pipe_ends[1]);
    close(pipe_ends[1]);
    wl_display_flush(w->display);
    size_t capacity = 0;
    int result = 0;
    long long start = agent_now_ms();
    digest *sum = hash ? digest_new() : NULL; /* as it comes, while the owner writes more */
    for (;;) {
        long long left = TRANSFER_MS - (agent_now_ms() - start);
        struct pollfd ready = {.fd = pipe_ends[0], .events = POLLIN};
        int polled = left > 0 ? poll(&ready, 1, left < ANSWER_MS ? (int)left : ANSWER_MS) : 0;
        if (polled < 0 && errno == EINTR) continue;
        if (polled <= 0) {
            if (left <= 0) agent_gave_up(agent_now_ms() - start);
            result = -1;
            break;
        }
        if (*length == capacity) { /* room for one byte over the limit: to see it is over */
            size_t grown = capacity ? capacity * 2 : 256 * 1024;
            if (grown > limit + 1) grown = (size_t)limit + 1;
            unsigned char *bigger = realloc(*data, grown);
            if (!bigger) {
                result = -1;
                break;
            }
            *data = bigger, capacity = grown;
        }
        ssize_t count = read(pipe_ends[0], *data + *length, capacity - *length);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) {
            result = -1;
            break;
        }
        if (count == 0) break;
        digest_update(sum, *data + *length, (size_t)count);
        *length += (uint32_t)count;
        if (*length > limit) {
            result = -2;
            break;
        }
    }
    close(pipe_ends[0]); /* an owner still writing gets EPIPE */
    if (result != 0) free(*data), *data = NULL, *length = 0;
    if (result == 0 && sum) digest_finish(sum, hash);
    else digest_free(sum);
    return result;
}

int wayland_read(wayland *w, wayland_offer *offer, uint64_t limit, reading *out) {
    memset(out, 0, sizeof *out);
    if (!offer) return 0; /* the clipboard is empty */
    size_t chosen[AGENT_MAX_TARGETS];
    long hint;
    size_t count = targets_choose((const char *const *)offer->types, offer->count, chosen, &hint, &out->secret);
    if (!out->secret && hint >= 0) {
        unsigned char *value;
        uint32_t length;
        if (receive(w, offer, offer->types[hint], 256, &value, &length, NULL) == 0) {
            out->secret = hint_is_secret(value, length);
            free(value);
        } else {
            /* Fail closed: a hint not read may be a password's. */
            out->secret = out->hint_unread = 1;
        }
    }
    int answered = count == 0;
    for (size_t i = 0; i < count && !out->secret; i++) {
        read_target *t = &out->list[out->count];
        snprintf(t->name, sizeof t->name, "%s", offer->types[chosen[i]]);
        uint64_t left = out->too_large ? 0 : limit - out->total;
        int result = receive(w, offer, t->name, left, &t->data, &t->length, t->hash);
        if (result == -1) continue; /* refused: not offered on */
        answered = 1;
        if (result == -2) {
            out->too_large = 1;
            t->data = NULL, t->length = 0;
        }
        out->total += t->length;
        out->count++;
    }
    return answered || out->secret ? 0 : -1;
}

/* ---- the seat's data-control device ---- */

static void device_data_offer(void *data, struct zwlr_data_control_device_v1 *device, struct zwlr_data_control_offer_v1 *proxy) {
    (void)device;
    wayland *w = data;
    wayland_offer *offer = calloc(1, sizeof *offer);
    if (!offer) {
        zwlr_data_control_offer_v1_destroy(proxy);
        return;
    }
    offer->proxy = proxy;
    zwlr_data_control_offer_v1_add_listener(proxy, &offer_listener, offer);
    offer_destroy(w->introduced); /* introduced and never named: nothing will */
    w->introduced = offer;
}

/* The offer a selection event names: the one just introduced (else none we know). */
static wayland_offer *named(wayland *w, struct zwlr_data_control_offer_v1 *proxy) {
    if (!proxy || !w->introduced || w->introduced->proxy != proxy) return NULL;
    wayland_offer *offer = w->introduced;
    w->introduced = NULL;
    return offer;
}

/* A new CLIPBOARD or PRIMARY selection (in `*slot`): reported unless it is our own. */
static void selected(wayland *w, wayland_offer **slot, int primary, struct zwlr_data_control_offer_v1 *proxy) {
    offer_destroy(*slot);
    *slot = named(w, proxy);
    if (!w->started) return; /* what the clipboard held before the agent started is no news */
    if (wayland_owner_is_ours(w->owner, primary, proxy == NULL)) {
        /* Our own offer for another device (never offered back), or our giving it up. */
        offer_destroy(*slot);
        *slot = NULL;
        return;
    }
    if (!w->watch) {
        report_simple(w->daemon, "owner-changed");
    } else if (!*slot) {
        report_cleared(w->daemon);
    } else {
        reading r;
        report_reading(w->daemon, wayland_read(w, *slot, w->limit, &r), &r, 0);
    }
}

static void device_selection(void *data, struct zwlr_data_control_device_v1 *device, struct zwlr_data_control_offer_v1 *proxy) {
    (void)device;
    wayland *w = data;
    selected(w, &w->selection, 0, proxy);
}

static void device_finished(void *data, struct zwlr_data_control_device_v1 *device) {
    (void)device;
    ((wayland *)data)->finished = 1;
}

static void device_primary_selection(void *data, struct zwlr_data_control_device_v1 *device, struct zwlr_data_control_offer_v1 *proxy) {
    (void)device;
    wayland *w = data;
    /* PRIMARY is watched only when asked, and only in watch mode (a push reads the CLIPBOARD). */
    if (w->primary && w->watch) {
        selected(w, &w->primary_selection, 1, proxy);
    } else {
        offer_destroy(named(w, proxy));
    }
}

static const struct zwlr_data_control_device_v1_listener device_listener = {
    device_data_offer,
    device_selection,
    device_finished,
    device_primary_selection,
};

/* ---- the registry: the first seat, and the data-control manager ---- */

static void global_added(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    wayland *w = data;
    if (strcmp(interface, wl_seat_interface.name) == 0 && !w->seat) {
        w->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    } else if (strcmp(interface, zwlr_data_control_manager_v1_interface.name) == 0 && !w->manager) {
        w->manager = wl_registry_bind(registry, name, &zwlr_data_control_manager_v1_interface, version < 2 ? version : 2);
    }
}

static void global_removed(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data, (void)registry, (void)name; /* a seat that goes ends its device: `finished` */
}

static const struct wl_registry_listener registry_listener = {global_added, global_removed};

/* ---- the daemon's requests, for frames_receive ---- */

static int wayland_read_now(void *self, reading *out) {
    wayland *w = self;
    /* Our own offer is another device's: reading it here would wait for ourselves. */
    if (wayland_owner_holds(w->owner)) return memset(out, 0, sizeof *out), -1;
    return wayland_read(w, w->selection, w->limit, out);
}

static int wayland_own(void *self, const char *id, offered_target *targets, size_t count) {
    return wayland_owner_take(((wayland *)self)->owner, id, targets, count);
}

static void wayland_release(void *self, const char *id) { wayland_owner_release(((wayland *)self)->owner, id); }

static void wayland_fetched(void *self, const fetched *piece) { wayland_owner_fetched(((wayland *)self)->owner, piece); }

static const backend wayland_backend = {wayland_read_now, wayland_own, wayland_release, wayland_fetched};

int wayland_run(int fd, int watch, int primary, uint64_t limit) {
    wayland w = {.daemon = fd, .watch = watch, .limit = limit};
    if (!(w.display = wl_display_connect(NULL))) return AGENT_NO_DATA_CONTROL;
    struct wl_registry *registry = wl_display_get_registry(w.display);
    wl_registry_add_listener(registry, &registry_listener, &w);
    if (wl_display_roundtrip(w.display) < 0 || !w.seat || !w.manager) {
        wl_display_disconnect(w.display);
        return AGENT_NO_DATA_CONTROL;
    }
    w.primary = primary && zwlr_data_control_manager_v1_get_version(w.manager) >= 2;
    if (!(w.owner = wayland_owner_new(&w))) return 1;
    w.device = zwlr_data_control_manager_v1_get_data_device(w.manager, w.seat);
    zwlr_data_control_device_v1_add_listener(w.device, &device_listener, &w);
    if (wl_display_roundtrip(w.display) < 0) return 1; /* the first selection: what is there now */
    w.started = 1;
    char name[300];
    snprintf(name, sizeof name, "Wayland display %s", getenv("WAYLAND_DISPLAY"));
    report_ready(fd, name);

    struct pollfd descriptors[2 + AGENT_MAX_PASTES];
    for (;;) {
        while (wl_display_prepare_read(w.display) != 0) {
            if (wl_display_dispatch_pending(w.display) < 0) break;
        }
        wl_display_flush(w.display);
        descriptors[0] = (struct pollfd){.fd = wl_display_get_fd(w.display), .events = POLLIN};
        descriptors[1] = (struct pollfd){.fd = fd, .events = POLLIN};
        size_t count = 2 + wayland_owner_descriptors(w.owner, descriptors + 2, AGENT_MAX_PASTES);
        int polled = poll(descriptors, count, 1000);
        if (polled < 0 && errno != EINTR) {
            wl_display_cancel_read(w.display);
            perror("actshare-clipboard-agent: poll");
            return 1;
        }
        if (polled > 0 && (descriptors[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            if (wl_display_read_events(w.display) < 0) {
                fprintf(stderr, "actshare-clipboard-agent: the Wayland compositor went away (%s)\n", strerror(errno));
                return 1;
            }
        } else {
            wl_display_cancel_read(w.display);
            if (polled == 0) agent_idle();
        }
        if (wl_display_dispatch_pending(w.display) < 0 || w.finished) {
            fprintf(stderr, "actshare-clipboard-agent: the Wayland connection ended (error %d)\n", wl_display_get_error(w.display));
            return 1;
        }
        wayland_owner_serve(w.owner, descriptors + 2, polled > 0 ? count - 2 : 0);
        if ((descriptors[1].revents & (POLLIN | POLLHUP | POLLERR)) && frames_receive(fd, limit, &wayland_backend, &w) != 0) return 0;
    }
}
