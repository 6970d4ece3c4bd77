/* Another device's offer as the agent holds it: its targets from the daemon's `own`, and
 * their bytes once fetched (targets with the same hash share one fetch). */
#include "agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Adds target `alias` with `name`'s bytes when only `name` is offered (and there is room). */
static size_t alias(offered_target *targets, size_t count, const char *name, const char *alias) {
    long found = -1;
    for (size_t i = 0; i < count; i++) {
        if (strcmp(targets[i].name, alias) == 0) return count;
        if (strcmp(targets[i].name, name) == 0) found = (long)i;
    }
    if (found < 0 || count == AGENT_MAX_TARGETS) return count;
    targets[count] = targets[found];
    snprintf(targets[count].name, sizeof targets[count].name, "%s", alias);
    return count + 1;
}

size_t offer_parse(json_object *header, const char **id, offered_target *targets) {
    json_object *offer = NULL, *list = NULL;
    *id = NULL;
    if (!json_object_object_get_ex(header, "offer", &offer) || !json_object_is_type(offer, json_type_string) ||
        !json_object_object_get_ex(header, "targets", &list) || !json_object_is_type(list, json_type_array))
        return 0;
    *id = json_object_get_string(offer);
    size_t count = 0;
    for (size_t i = 0; i < json_object_array_length(list) && count < AGENT_MAX_TARGETS; i++) {
        json_object *entry = json_object_array_get_idx(list, i), *name = NULL, *size = NULL, *hash = NULL, *any = NULL;
        if (!json_object_object_get_ex(entry, "name", &name) || !json_object_object_get_ex(entry, "size", &size) ||
            !json_object_object_get_ex(entry, "hash", &hash))
            continue;
        offered_target *t = &targets[count];
        memset(t, 0, sizeof *t);
        int64_t bytes = json_object_get_int64(size);
        if (bytes < 0 || bytes > 0x7FFFFFFF || snprintf(t->name, sizeof t->name, "%s", json_object_get_string(name)) >= (int)sizeof t->name ||
            !t->name[0])
            continue;
        snprintf(t->hash, sizeof t->hash, "%s", json_object_get_string(hash));
        t->any_size = json_object_object_get_ex(entry, "any-size", &any) && json_object_get_boolean(any);
        t->size = (uint32_t)bytes;
        count++;
    }
    /* Text under its X name and its Wayland one alike: a copy in an X app that offers only
     * UTF8_STRING pastes in a Wayland app, and the other way round. */
    count = alias(targets, count, "UTF8_STRING", "text/plain;charset=utf-8");
    return alias(targets, count, "text/plain;charset=utf-8", "UTF8_STRING");
}

void offer_receive(offered_target *targets, size_t count, const fetched *piece) {
    offered_target *lead = NULL; /* the target of this hash that holds the bytes */
    for (size_t i = 0; i < count && !lead; i++) {
        if (strcmp(targets[i].hash, piece->hash) == 0 && !targets[i].complete && !targets[i].failed) lead = &targets[i];
    }
    if (!lead) return;
    int good = !piece->last || piece->ok;
    uint64_t total = (uint64_t)lead->received + piece->length;
    if (good && !lead->any_size && total > lead->size) good = 0; /* more than offered */
    if (good && piece->length > 0) {
        if (!lead->data && piece->last && *piece->data) {
            lead->data = *piece->data; /* all in one piece: taken as it came, not copied */
            *piece->data = NULL;
        } else {
            if (!lead->data) lead->data = malloc(lead->any_size ? piece->length : lead->size);
            if (!lead->data || (lead->any_size && lead->received > 0)) good = 0; /* made on fetch: one piece */
            else memcpy(lead->data + lead->received, *piece->data, piece->length);
        }
        if (good) lead->received = (uint32_t)total;
    }
    if (good && piece->last && !lead->any_size && lead->received != lead->size) good = 0; /* fewer than offered */
    if (good && piece->last && lead->size == 0 && !lead->data) lead->data = malloc(1);
    for (size_t i = 0; i < count; i++) {
        offered_target *t = &targets[i];
        if (strcmp(t->hash, piece->hash) != 0 || t->complete || t->failed) continue;
        if (!good) {
            if (t == lead || !t->shared) free(t->data);
            t->data = NULL, t->received = 0, t->shared = 0, t->fetching = 0, t->failed = 1;
            continue;
        }
        if (t != lead) t->data = lead->data, t->shared = 1, t->received = lead->received;
        if (piece->last) t->complete = 1, t->fetching = 0, t->size = t->received, t->any_size = 0;
    }
}

void offer_forget(offered_target *targets, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (!targets[i].shared) free(targets[i].data);
        targets[i].data = NULL;
    }
}

void offer_mark_fetching(offered_target *targets, size_t count, const char *hash) {
    for (size_t i = 0; i < count; i++) {
        if (strcmp(targets[i].hash, hash) == 0) targets[i].fetching = 1;
    }
}
