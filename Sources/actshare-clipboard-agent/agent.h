/*
 * actshare-clipboard-agent: the handoff daemon's hands on one X display's clipboard
 * (docs/CLIPBOARD.md, "Universal Clipboard").
 *
 * The daemon starts it with a socket on standard input and output and talks with it in
 * frames (channel.c). The agent watches who owns the CLIPBOARD selection (XFixes), reads
 * what a new owner offers when asked to (or at once in watch mode), and takes the
 * clipboard for an offer from another device, asking the daemon for a target's bytes
 * only when an application pastes it. It knows nothing of peers, TLS or config.
 */
#ifndef ACTSHARE_CLIPBOARD_AGENT_H
#define ACTSHARE_CLIPBOARD_AGENT_H

#include <json-c/json.h>
#include <xcb/xcb.h>

#include <stddef.h>
#include <stdint.h>

/* At most this many targets are read from an owner, or offered for another device. */
#define AGENT_MAX_TARGETS 32
/* A frame's header (JSON) is at most this long. */
#define AGENT_MAX_HEADER (64u << 10)

/* ---- channel.c: frames with the daemon ----
 * A frame is a 32-bit big-endian header length, the header (one JSON object), a 32-bit
 * big-endian data length, and the data. */

/* Writes one frame; -1 when the daemon is gone. */
int channel_write(int fd, json_object *header, const unsigned char *data, uint32_t length);
/* Writes one frame whose data is `count` pieces, one after another. */
int channel_write_pieces(int fd, json_object *header, const unsigned char *const *pieces, const uint32_t *lengths, size_t count);
/* Reads one frame (data at most `limit` bytes); -1 at the end or on a malformed frame. */
int channel_read(int fd, uint32_t limit, json_object **header, unsigned char **data, uint32_t *length);

/* ---- display.c: the X connection, its atoms, and waiting for an event ---- */

typedef struct display {
    xcb_connection_t *connection;
    xcb_window_t window; /* ours: selections are read into it and owned by it */
    xcb_window_t root;
    xcb_atom_t clipboard, targets, timestamp, incr, multiple, utf8, password_hint;
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

/* ---- reader.c: what another client's selection holds ---- */

typedef struct read_target {
    char name[256];
    unsigned char *data;
    uint32_t length;
} read_target;

typedef struct reading {
    read_target list[AGENT_MAX_TARGETS];
    size_t count;
    int secret;    /* a password manager marked it (never offered) */
    int too_large; /* more than the limit: sizes only, no data */
    uint64_t total;
} reading;

/* Reads `selection`'s targets (meta targets left out; of the images, the one best kept)
 * with their data, at most `limit` bytes in all. 0 on success, -1 if the owner did not
 * answer. */
int reader_read(display *d, xcb_atom_t selection, uint64_t limit, reading *out);
void reading_free(reading *r);

/* ---- owner.c: the clipboard taken for another device's offer ---- */

typedef struct offered_target {
    xcb_atom_t atom;
    char name[256];
    char hash[65]; /* SHA-256, hex: targets with the same bytes share one fetch */
    uint32_t size;
    int any_size;        /* made on fetch (a list of files): its size is what comes */
    unsigned char *data; /* once fetched */
    int fetching, failed;
} offered_target;

typedef struct owner owner;

owner *owner_new(display *d, int daemon_fd);
/* Takes the clipboard for offer `id` with these targets; 0 on success. */
int owner_take(owner *o, const char *id, offered_target *targets, size_t count);
/* Gives it up if offer `id` still holds it. */
void owner_release(owner *o, const char *id);
/* The daemon's answer to a fetch: the target's bytes, or NULL when it failed. The owner
 * takes `*data` (and sets it to NULL) when it keeps it. */
void owner_fetched(owner *o, const char *id, const char *hash, unsigned char **data, uint32_t length);
/* Handles an X event that concerns the owner; returns 1 if it did. */
int owner_handle(owner *o, xcb_generic_event_t *event);
/* Whether a change of owner to `window` at `timestamp` is the owner's own doing: its
 * taking, or its giving up (no echo of either). */
int owner_is_ours(owner *o, xcb_window_t window, xcb_timestamp_t timestamp);
/* Requests waiting longer than their limit are answered with nothing. */
void owner_expire(owner *o);

#endif
