/*
 * actshare-clipboard-agent: the handoff daemon's hands on one X display's clipboard
 * (docs/CLIPBOARD.md, "Universal Clipboard").
 *
 * The daemon starts it with a socket on standard input and output and talks with it in
 * frames (channel.c, report.c). The agent watches who owns the clipboard, reads what a
 * new owner offers when asked to (or at once in watch mode), and takes the clipboard for
 * an offer from another device, asking the daemon for a target's bytes only when an
 * application pastes it. It knows nothing of peers, TLS or config.
 *
 * Two back ends do this, each as a reader, an owner and a loop: X11 (x11*.c: XCB with
 * XFixes) and Wayland (wayland*.c, wayland.h: wlroots' data-control protocol). What they
 * share is here: the bounds, which targets are offered (targets.c), the frames, and an
 * offer as the agent holds it (offer.c).
 */
#ifndef ACTSHARE_CLIPBOARD_AGENT_H
#define ACTSHARE_CLIPBOARD_AGENT_H

#include "agent_protocol.h"

#include <json-c/json.h>
#include <xcb/xcb.h>

#include <malloc.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* At most this many targets are read from an owner, or offered for another device… */
#define AGENT_MAX_TARGETS 32
/* …chosen from at most this many that an owner lists. */
#define AGENT_MAX_OFFERED 256
/* How long an owner may take to answer one read, or to give its next piece of data… */
#define ANSWER_MS 1500
/* …and a whole read, however quick each piece (an owner that never ends one). */
#define TRANSFER_MS 10000

/* Says on standard error (the daemon's log) that a read was given up after `elapsed`
 * milliseconds, over TRANSFER_MS: by the agent's own clock, what a test checks. */
static inline void agent_gave_up(long long elapsed) {
    fprintf(stderr, "actshare-clipboard-agent: gave up a read after %lld ms: the owner did not end it within %d s\n", elapsed,
            TRANSFER_MS / 1000);
}
/* At most this many pastes of another device's offer wait for its bytes (or, on Wayland,
 * are being written), each at most this long. */
#define AGENT_MAX_PASTES 64
#define AGENT_PASTE_MS 30000
/* What a backend's run returns when it cannot watch this session's clipboard at all. */
#define AGENT_NO_DATA_CONTROL (-2)
/* The target KDE and KeePassXC set to mark a password: its value `secret` says so. */
#define PASSWORD_HINT_TARGET "x-kde-passwordManagerHint"

/* The monotonic clock, in milliseconds: every bound above is measured by it. */
static inline long long agent_now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* ---- channel.c: frames with the daemon (agent_protocol.h specifies them) ---- */

/* Writes one frame; -1 when the daemon is gone. */
int channel_write(int fd, json_object *header, const unsigned char *data, uint32_t length);
/* Writes one frame whose data is `count` pieces, one after another. */
int channel_write_pieces(int fd, json_object *header, const unsigned char *const *pieces, const uint32_t *lengths, size_t count);
/* Reads one frame (data at most `limit` bytes); -1 at the end or on a malformed frame. */
int channel_read(int fd, uint32_t limit, json_object **header, unsigned char **data, uint32_t *length);

/* ---- digest.c: SHA-256 of what is read, as it comes in ---- */

typedef struct digest digest;
digest *digest_new(void);
void digest_update(digest *sum, const void *bytes, size_t count);
/* Its value in hex (empty if it failed); frees it. */
void digest_finish(digest *sum, char hex[65]);
void digest_free(digest *sum);

/* ---- targets.c: which of an owner's targets are offered ---- */

/* Of `names` (the owner's targets, in its order of preference), the indexes to read, in
 * `chosen` (at most AGENT_MAX_TARGETS): no meta targets (TARGETS, TIMESTAMP…), one image
 * (PNG if offered). `*hint` is the password hint's index or -1; `*concealed` is set when
 * a password manager's concealed type is listed. Returns how many were chosen. */
size_t targets_choose(const char *const *names, size_t count, size_t *chosen, long *hint, int *concealed);
/* Whether the password hint's value marks a secret. */
int hint_is_secret(const unsigned char *hint, uint32_t length);

/* ---- x11_display.c: the X connection, its atoms, and waiting for an event ---- */

typedef struct display {
    xcb_connection_t *connection;
    xcb_window_t window; /* ours: selections are read into it and owned by it */
    xcb_window_t root;
    xcb_atom_t clipboard, targets, timestamp, incr;
    xcb_atom_t reading; /* the property of our window selections are read into */
    int primary; /* PRIMARY (XCB_ATOM_PRIMARY) is watched and owned too (--primary) */
    uint8_t xfixes_event; /* the first XFixes event code */
    uint32_t chunk;       /* the most data in one property */
    /* Events that arrived while waiting for another: handled next, in order. */
    xcb_generic_event_t *queued[256];
    size_t queued_count;
} display;

int display_open(display *d);
xcb_atom_t display_atom(display *d, const char *name);
/* The atom's name, in `name` (at most `size` bytes); 0 on success. */
int display_atom_name(display *d, xcb_atom_t atom, char *name, size_t size);
/* The next event matching `match`, waiting at most `milliseconds`; others are queued.
 * NULL on timeout or a broken connection. The caller frees it. */
xcb_generic_event_t *display_wait(display *d, int (*match)(const xcb_generic_event_t *, const void *), const void *context,
                                  int milliseconds);
/* The next queued event, or NULL. */
xcb_generic_event_t *display_next_queued(display *d);
/* The server's time now (for owning a selection; ICCCM forbids CurrentTime). */
xcb_timestamp_t display_now(display *d);

/* ---- what another client's selection holds, read by either back end ---- */

typedef struct read_target {
    char name[256];
    unsigned char *data;
    uint32_t length;
    char hash[65]; /* SHA-256 of the data, hex ("" when too large: no data) */
} read_target;

typedef struct reading {
    read_target list[AGENT_MAX_TARGETS];
    size_t count;
    int secret;    /* a password manager marked it (never offered) */
    int hint_unread; /* it offered the password hint but did not answer it in time: taken as
                      * a secret (a password manager under load answers late), and said so */
    int too_large; /* more than the limit: sizes only, no data */
    int unanswered; /* a target the owner did not answer in time (busy with another paste):
                     * the X11 loop reads it all again a little later */
    uint64_t total;
} reading;

void reading_free(reading *r);

/* ---- offer.c: another device's offer, as the agent holds it ---- */

typedef struct offered_target {
    xcb_atom_t atom;
    char name[256];
    char hash[65]; /* SHA-256, hex: targets with the same bytes share one fetch */
    uint32_t size;
    int any_size;        /* made on fetch (a list of files): its size is what comes */
    unsigned char *data; /* as it arrives: `size` bytes, shared by the targets of one hash */
    uint32_t received;   /* how many of them are here */
    int shared;          /* `data` is another target's (of the same hash): not freed here */
    int fetching, failed, complete;
} offered_target;

/* A piece of the daemon's answer to a fetch (`data` frames: docs/PROTOCOL.md). */
typedef struct fetched {
    const char *offer, *hash;
    unsigned char **data; /* the piece; taken (set to NULL) when kept as it is */
    uint32_t length;
    int last; /* the fetch ended with this piece… */
    int ok;   /* …whole, and its hash checked */
} fetched;

/* The daemon's `own`: its offer id in `*id` (NULL if malformed) and its targets, at most
 * AGENT_MAX_TARGETS; returns how many. */
size_t offer_parse(json_object *header, const char **id, offered_target *targets);
/* Whether all of a target's bytes are here, checked, to answer a paste with. */
static inline int offered_ready(const offered_target *t) { return t->complete || (t->size == 0 && !t->any_size); }
/* Marks the targets with this hash as being fetched. */
void offer_mark_fetching(offered_target *targets, size_t count, const char *hash);
/* A piece of a fetch, for every target with its hash: appended; at the last one, complete
 * if whole and checked, else failed (and the bytes dropped). */
void offer_receive(offered_target *targets, size_t count, const fetched *piece);
void offer_forget(offered_target *targets, size_t count);

/* ---- frames.c: the frames' contents, both ways ---- */

void report_simple(int fd, const char *type);
/* `ready`, naming the display it watches ("X11 display :0", "Wayland display wayland-1"). */
void report_ready(int fd, const char *display);
/* `changed`: what the clipboard holds, or (a reader's `result` not 0) that its owner
 * did not answer. Frees the reading. */
void report_reading(int fd, int result, reading *r, int push);
/* `changed` with no targets: the clipboard was cleared. */
void report_cleared(int fd);
/* `fetch`: a paste needs this target's bytes. */
void report_fetch(int fd, const char *offer, const offered_target *t);
/* `owned` (with ok: 0 or 1) or `released` (ok -1: left out). */
void report_offer(int fd, const char *type, const char *offer, int ok);
/* A string field of a frame's header, or "". */
const char *header_string(json_object *header, const char *key);

/* What a back end does for the daemon's requests. */
typedef struct backend {
    /* `read` (a push): the clipboard now; 0, or -1 if its owner did not answer. */
    int (*read)(void *self, reading *out);
    /* `own`: takes the clipboard for offer `id`; 0 on success. */
    int (*own)(void *self, const char *id, offered_target *targets, size_t count);
    /* `release`: gives it up if offer `id` still holds it. */
    void (*release)(void *self, const char *id);
    /* `data`: a piece of a fetch's answer (as offer_receive). */
    void (*fetched)(void *self, const fetched *piece);
} backend;

/* Reads one frame from the daemon and hands it to the back end; -1 when the daemon is gone. */
int frames_receive(int fd, uint64_t limit, const backend *b, void *self);

/* ---- the back ends' loops: 0 when the daemon closes the socket, else an exit status ---- */

/* A second with nothing to do: the heap's free memory goes back to the system. */
static inline void agent_idle(void) { malloc_trim(0); }

/* `primary`: the PRIMARY selection too: watched (in watch mode) and owned for an offer. */
int x11_run(int fd, int watch, int primary, uint64_t limit);
/* AGENT_NO_DATA_CONTROL when there is no Wayland compositor or it lacks data-control. */
int wayland_run(int fd, int watch, int primary, uint64_t limit);

/* ---- x11_reader.c: what another X client's selection holds ---- */

/* Reads `selection`'s targets (as targets_choose keeps them) with their data, at most
 * `limit` bytes in all. 0 on success (`out->unanswered` if a target was not answered in
 * time), -1 if the owner refused its TARGETS, READ_UNANSWERED if it did not answer them
 * in time. With `again` (it will be read again), the first target not answered ends the
 * reading, so that an owner answering nothing holds the agent 3 s at most each time;
 * without, each target is waited for in turn. */
#define READ_UNANSWERED (-3)
int reader_read(display *d, xcb_atom_t selection, uint64_t limit, int again, reading *out);
/* An answer that came after its reading gave up (a PropertyNotify of our reading
 * property, outside a reading): deleted, so that an owner that began an INCR transfer
 * for it goes on to its end instead of waiting for us, and serves others again. */
void reader_drop_late(display *d, const xcb_property_notify_event_t *change);

/* ---- x11_owner.c: the X clipboard taken for another device's offer ---- */

typedef struct owner owner;

owner *owner_new(display *d, int daemon_fd);
/* Takes the clipboard (and PRIMARY, if handled) for offer `id` with these targets; 0 on
 * success. */
int owner_take(owner *o, const char *id, offered_target *targets, size_t count);
/* Gives it up if offer `id` still holds it. */
void owner_release(owner *o, const char *id);
/* A piece of the daemon's answer to a fetch (as offer_receive). A paste of a target too
 * large for one property starts as soon as bytes come, by INCR; its last chunk waits
 * until the fetch is whole and checked, so an application never ends a paste with bytes
 * that were not what was offered. */
void owner_fetched(owner *o, const fetched *piece);
/* Handles an X event that concerns the owner; returns 1 if it did. */
int owner_handle(owner *o, xcb_generic_event_t *event);
/* Whether a change of owner to `window` at `timestamp` is the owner's own doing: its
 * taking, or its giving up (no echo of either). */
int owner_is_ours(owner *o, xcb_window_t window, xcb_timestamp_t timestamp);
/* Requests waiting longer than their limit are answered with nothing. */
void owner_expire(owner *o);

#endif
