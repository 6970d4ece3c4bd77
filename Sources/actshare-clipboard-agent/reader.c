/* Reads what another client's selection holds: its TARGETS, then each target kept, by
 * a property on our window, INCR included (ICCCM 2.7.2). Every wait is bounded: an owner
 * that does not answer costs at most a few seconds, and the daemon is told nothing. */
#include "agent.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How long an owner may take to answer one conversion, or to put the next INCR chunk… */
#define ANSWER_MS 1500
/* …and a whole INCR transfer, however quick each chunk (an owner that never ends one). */
#define TRANSFER_MS 10000

/* Targets that are about the selection, not its content: never offered to a device. */
static const char *const meta_targets[] = {
    "TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS", "DELETE", "INSERT_PROPERTY", "INSERT_SELECTION",
    "COMPOUND_TEXT", /* a legacy encoding: UTF8_STRING says the same */
    "SAVE_TARGETS", "CLIPBOARD_MANAGER",
};

/* Targets only password managers set: whatever else is offered is a secret. */
static const char *const concealed_targets[] = {
    "application/x-nspasteboard-concealed-type",
    "ExcludeClipboardContentFromMonitorProcessing",
};

typedef struct awaited {
    xcb_window_t window;
    xcb_atom_t selection, target, property;
} awaited;

static int is_notify(const xcb_generic_event_t *event, const void *context) {
    const awaited *a = context;
    if ((event->response_type & 0x7F) != XCB_SELECTION_NOTIFY) return 0;
    const xcb_selection_notify_event_t *n = (const xcb_selection_notify_event_t *)event;
    return n->requestor == a->window && n->selection == a->selection && n->target == a->target;
}

static int is_new_value(const xcb_generic_event_t *event, const void *context) {
    const awaited *a = context;
    if ((event->response_type & 0x7F) != XCB_PROPERTY_NOTIFY) return 0;
    const xcb_property_notify_event_t *n = (const xcb_property_notify_event_t *)event;
    return n->window == a->window && n->atom == a->property && n->state == XCB_PROPERTY_NEW_VALUE;
}

/* Appends `length` bytes to `*data`; -1 past `limit`. */
static int append(unsigned char **data, uint32_t *length, const void *bytes, uint32_t count, uint64_t limit) {
    if ((uint64_t)*length + count > limit) return -1;
    unsigned char *grown = realloc(*data, (size_t)*length + count + 1);
    if (!grown) return -1;
    memcpy(grown + *length, bytes, count);
    *data = grown;
    *length += count;
    return 0;
}

/* Converts `target` and reads the result (deleting the property); -1 if refused or too
 * slow, -2 if more than `limit` bytes. */
static int convert(display *d, xcb_atom_t selection, xcb_atom_t target, xcb_atom_t property, uint64_t limit, unsigned char **data,
                   uint32_t *length, xcb_atom_t *type) {
    xcb_connection_t *c = d->connection;
    *data = NULL, *length = 0;
    xcb_convert_selection(c, d->window, selection, target, property, XCB_CURRENT_TIME);
    awaited a = {d->window, selection, target, property};
    xcb_generic_event_t *event = display_wait(d, is_notify, &a, ANSWER_MS);
    if (!event) return -1;
    xcb_atom_t answered = ((xcb_selection_notify_event_t *)event)->property;
    free(event);
    if (answered == XCB_NONE) return -1;
    uint32_t words = (uint32_t)((limit + 4) / 4 + 1);
    xcb_get_property_reply_t *reply = xcb_get_property_reply(c, xcb_get_property(c, 1, d->window, property, XCB_GET_PROPERTY_TYPE_ANY, 0, words), NULL);
    if (!reply) return -1;
    *type = reply->type;
    if (reply->type != d->incr) {
        int result = 0;
        uint32_t count = (uint32_t)xcb_get_property_value_length(reply); /* in bytes */
        if (reply->bytes_after > 0 || append(data, length, xcb_get_property_value(reply), count, limit) != 0) result = -2;
        free(reply);
        if (result != 0) free(*data), *data = NULL, *length = 0;
        return result;
    }
    free(reply);
    /* INCR: each chunk is announced by a new value, read and deleted; an empty one ends it. */
    int result = 0;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 > TRANSFER_MS) {
            result = -1;
            break;
        }
        event = display_wait(d, is_new_value, &a, ANSWER_MS);
        if (!event) {
            result = -1;
            break;
        }
        free(event);
        reply = xcb_get_property_reply(c, xcb_get_property(c, 1, d->window, property, XCB_GET_PROPERTY_TYPE_ANY, 0, words), NULL);
        if (!reply) {
            result = -1;
            break;
        }
        *type = reply->type;
        uint32_t count = (uint32_t)xcb_get_property_value_length(reply); /* in bytes */
        if (count == 0) {
            free(reply);
            break;
        }
        int over = result == -2 || append(data, length, xcb_get_property_value(reply), count, limit) != 0;
        free(reply);
        if (over) {
            /* Drained to the end (the owner expects it), kept no more. */
            result = -2;
            free(*data), *data = NULL, *length = 0;
        }
    }
    if (result != 0) free(*data), *data = NULL, *length = 0;
    return result;
}

static int listed(const char *name, const char *const *names, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (strcmp(name, names[i]) == 0) return 1;
    }
    return 0;
}

int reader_read(display *d, xcb_atom_t selection, uint64_t limit, reading *out) {
    memset(out, 0, sizeof *out);
    xcb_atom_t property = display_atom(d, "ACTSHARE_SELECTION");
    unsigned char *data;
    uint32_t length;
    xcb_atom_t type;
    if (convert(d, selection, d->targets, property, 4u * 4096, &data, &length, &type) != 0) return -1;
    size_t atom_count = length / 4;
    if (atom_count > 4096) atom_count = 4096;
    xcb_atom_t *atoms = (xcb_atom_t *)data;

    /* The names, in the owner's order of preference; of the images, one: PNG if offered
     * (every reader takes it), else the first (a GTK source converts one image into ten
     * formats, each read would cost a conversion). */
    xcb_atom_t chosen[AGENT_MAX_TARGETS];
    char names[AGENT_MAX_TARGETS][256];
    size_t count = 0;
    long image = -1;
    for (size_t i = 0; i < atom_count && !out->secret; i++) {
        char name[256];
        if (atoms[i] == XCB_NONE || display_atom_name(d, atoms[i], name, sizeof name) != 0) continue;
        if (listed(name, concealed_targets, sizeof concealed_targets / sizeof *concealed_targets)) {
            out->secret = 1;
        } else if (atoms[i] == d->password_hint) {
            unsigned char *hint;
            uint32_t hint_length;
            if (convert(d, selection, atoms[i], property, 256, &hint, &hint_length, &type) == 0) {
                out->secret = hint_length >= 6 && memcmp(hint, "secret", 6) == 0;
                free(hint);
            }
        } else if (listed(name, meta_targets, sizeof meta_targets / sizeof *meta_targets)) {
            continue;
        } else if (strncmp(name, "image/", 6) == 0) {
            if (image >= 0 && strcmp(name, "image/png") != 0) continue;
            if (image >= 0) {
                chosen[image] = atoms[i];
                memcpy(names[image], name, sizeof name);
            } else if (count < AGENT_MAX_TARGETS) {
                image = (long)count;
                chosen[count] = atoms[i];
                memcpy(names[count++], name, sizeof name);
            }
        } else if (count < AGENT_MAX_TARGETS) {
            chosen[count] = atoms[i];
            memcpy(names[count++], name, sizeof name);
        }
    }
    free(data);
    if (out->secret) return 0;

    for (size_t i = 0; i < count; i++) {
        read_target *t = &out->list[out->count];
        memcpy(t->name, names[i], sizeof t->name);
        uint64_t left = out->too_large ? 0 : limit - out->total;
        int result = convert(d, selection, chosen[i], property, left, &t->data, &t->length, &type);
        if (result == -1) continue; /* refused: not offered on */
        if (result == -2) {
            out->too_large = 1;
            t->data = NULL, t->length = 0;
        }
        out->total += t->length;
        out->count++;
    }
    return 0;
}

void reading_free(reading *r) {
    for (size_t i = 0; i < r->count; i++) free(r->list[i].data);
    memset(r, 0, sizeof *r);
}
