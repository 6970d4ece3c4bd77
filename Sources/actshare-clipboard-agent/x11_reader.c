/* Reads what another client's selection holds: its TARGETS, then each target kept, by
 * a property on our window, INCR included (ICCCM 2.7.2). Every wait is bounded: an owner
 * that does not answer costs at most a few seconds, and says so (READ_UNANSWERED): an
 * owner busy serving another client answers nobody else meanwhile (xclip serves one paste
 * at a time), so the caller reads again. */
#include "agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Converts `target` and reads the result (deleting the property); -1 if refused or its
 * INCR transfer stalled or went on too long, READ_UNANSWERED if the conversion was not
 * answered in time, -2 if more than `limit` bytes. */
static int convert(display *d, xcb_atom_t selection, xcb_atom_t target, xcb_atom_t property, uint64_t limit, unsigned char **data,
                   uint32_t *length, xcb_atom_t *type, char *hash) {
    xcb_connection_t *c = d->connection;
    *data = NULL, *length = 0;
    if (hash) hash[0] = 0;
    xcb_convert_selection(c, d->window, selection, target, property, XCB_CURRENT_TIME);
    awaited a = {d->window, selection, target, property};
    xcb_generic_event_t *event = display_wait(d, is_notify, &a, ANSWER_MS);
    if (!event) return READ_UNANSWERED;
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
        if (result == 0 && hash) {
            digest *sum = digest_new();
            digest_update(sum, *data, *length);
            digest_finish(sum, hash);
        }
        return result;
    }
    free(reply);
    /* INCR: each chunk is announced by a new value, read and deleted; an empty one ends it.
     * Each is hashed as it comes, while the owner puts the next. */
    int result = 0;
    digest *sum = hash ? digest_new() : NULL;
    long long start = agent_now_ms();
    for (;;) {
        /* A transfer that stalls or never ends is given up, not read again. */
        if (agent_now_ms() - start > TRANSFER_MS) {
            agent_gave_up(agent_now_ms() - start);
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
        if (!over) digest_update(sum, xcb_get_property_value(reply), count);
        free(reply);
        if (over) {
            /* Drained to the end (the owner expects it), kept no more. */
            result = -2;
            free(*data), *data = NULL, *length = 0;
        }
    }
    if (result != 0) free(*data), *data = NULL, *length = 0;
    if (result == 0 && sum) digest_finish(sum, hash);
    else digest_free(sum);
    return result;
}

int reader_read(display *d, xcb_atom_t selection, uint64_t limit, int again, reading *out) {
    memset(out, 0, sizeof *out);
    xcb_atom_t property = d->reading;
    unsigned char *data;
    uint32_t length;
    xcb_atom_t type;
    int listed = convert(d, selection, d->targets, property, 4u * 4096, &data, &length, &type, NULL);
    if (listed != 0) return listed == READ_UNANSWERED ? READ_UNANSWERED : -1;
    const xcb_atom_t *atoms = (const xcb_atom_t *)data;
    size_t atom_count = 0;
    char (*names)[256] = malloc(AGENT_MAX_OFFERED * sizeof *names);
    const char *list[AGENT_MAX_OFFERED];
    xcb_atom_t listed_atoms[AGENT_MAX_OFFERED];
    for (size_t i = 0; names && i < length / 4 && atom_count < AGENT_MAX_OFFERED; i++) {
        if (atoms[i] == XCB_NONE || display_atom_name(d, atoms[i], names[atom_count], sizeof *names) != 0) continue;
        list[atom_count] = names[atom_count];
        listed_atoms[atom_count++] = atoms[i];
    }
    free(data);
    size_t chosen[AGENT_MAX_TARGETS];
    long hint;
    size_t count = names ? targets_choose(list, atom_count, chosen, &hint, &out->secret) : 0;
    if (!out->secret && hint >= 0) {
        unsigned char *hint_data;
        uint32_t hint_length;
        if (convert(d, selection, listed_atoms[hint], property, 256, &hint_data, &hint_length, &type, NULL) == 0) {
            out->secret = hint_is_secret(hint_data, hint_length);
            free(hint_data);
        } else {
            /* Fail closed: a hint not read may be a password's. */
            out->secret = out->hint_unread = 1;
        }
    }
    for (size_t i = 0; i < count && !out->secret; i++) {
        read_target *t = &out->list[out->count];
        snprintf(t->name, sizeof t->name, "%s", list[chosen[i]]);
        uint64_t left = out->too_large ? 0 : limit - out->total;
        int result = convert(d, selection, listed_atoms[chosen[i]], property, left, &t->data, &t->length, &type, t->hash);
        if (result == -1) continue; /* refused: not offered on */
        if (result == READ_UNANSWERED) {
            out->unanswered = 1;
            if (again) break;
            continue;
        }
        if (result == -2) {
            out->too_large = 1;
            t->data = NULL, t->length = 0;
        }
        out->total += t->length;
        out->count++;
    }
    free(names);
    return 0;
}

void reader_drop_late(display *d, const xcb_property_notify_event_t *change) {
    if (change->window != d->window || change->atom != d->reading || change->state != XCB_PROPERTY_NEW_VALUE) return;
    /* Deleted unread: the deletion is what an INCR owner waits for. */
    xcb_delete_property(d->connection, d->window, d->reading);
}
