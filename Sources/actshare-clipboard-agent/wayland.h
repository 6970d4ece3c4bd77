/* The Wayland back end (see agent.h): wlroots' data-control protocol, which lets a
 * clipboard manager see every new selection and set one without a window or focus.
 * The protocol's client code is generated from protocol/wlr-data-control-unstable-v1.xml. */
#ifndef ACTSHARE_CLIPBOARD_AGENT_WAYLAND_H
#define ACTSHARE_CLIPBOARD_AGENT_WAYLAND_H

#include "agent.h"
#include "wlr-data-control-unstable-v1-client-protocol.h"

#include <poll.h>
#include <wayland-client.h>

/* An offer from another client: the MIME types it listed (at most AGENT_MAX_OFFERED). */
typedef struct wayland_offer {
    struct zwlr_data_control_offer_v1 *proxy;
    char *types[AGENT_MAX_OFFERED];
    size_t count;
} wayland_offer;

typedef struct wayland_owner wayland_owner;

typedef struct wayland {
    struct wl_display *display;
    struct wl_seat *seat;
    struct zwlr_data_control_manager_v1 *manager;
    struct zwlr_data_control_device_v1 *device;
    wayland_offer *introduced; /* by data_offer, until a selection event names it */
    wayland_offer *selection;  /* the clipboard, when another client holds it */
    wayland_offer *primary_selection;
    int primary;               /* the PRIMARY selection too (--primary, and version 2) */
    int started;               /* past the first selection event (what was there before) */
    int finished;              /* the compositor ended the device */
    int daemon, watch;
    uint64_t limit;
    wayland_owner *owner;
} wayland;

/* Reads the offer's targets (as targets_choose keeps them) with their data, at most
 * `limit` bytes in all. 0 on success, -1 if its owner did not answer at all. */
int wayland_read(wayland *w, wayland_offer *offer, uint64_t limit, reading *out);

/* ---- wayland_owner.c: the clipboard taken for another device's offer ---- */

wayland_owner *wayland_owner_new(wayland *w);
int wayland_owner_take(wayland_owner *o, const char *id, offered_target *targets, size_t count);
void wayland_owner_release(wayland_owner *o, const char *id);
/* A piece of the daemon's answer to a fetch. A pipe cannot say a paste failed (its end is
 * its end), so pastes are written only once the fetch is whole and checked. */
void wayland_owner_fetched(wayland_owner *o, const fetched *piece);
/* Whether a new selection (`primary`: the PRIMARY one; `cleared`: none) is the owner's
 * own doing: its taking, or its giving up (no echo of either). */
int wayland_owner_is_ours(wayland_owner *o, int primary, int cleared);
/* Whether the clipboard is the owner's (another device's offer). */
int wayland_owner_holds(const wayland_owner *o);
/* The descriptors of pastes being written, for poll (at most `room`); returns how many. */
size_t wayland_owner_descriptors(wayland_owner *o, struct pollfd *fds, size_t room);
/* Writes what the pastes can take now; ends pastes finished, broken or past their time. */
void wayland_owner_serve(wayland_owner *o, const struct pollfd *fds, size_t count);

#endif
