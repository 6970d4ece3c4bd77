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

void offer_fill(offered_target *targets, size_t count, const char *hash, unsigned char **data, uint32_t length) {
    const unsigned char *kept = NULL; /* the bytes as the first target of this hash took them */
    for (size_t i = 0; i < count; i++) {
        offered_target *t = &targets[i];
        if (strcmp(t->hash, hash) != 0 || t->data) continue;
        t->fetching = 0;
        if (!data || (!*data && !kept && length > 0) || (length != t->size && !t->any_size)) {
            t->failed = 1;
            continue;
        }
        if (!kept && *data) {
            t->data = *data; /* taken as it came: a 20 MiB image is not copied */
            *data = NULL;
        } else if ((t->data = malloc(length ? length : 1)) && kept) {
            memcpy(t->data, kept, length);
        }
        if (!t->data) {
            t->failed = 1;
            continue;
        }
        kept = t->data;
        t->size = length;
        t->any_size = 0;
    }
}

void offer_forget(offered_target *targets, size_t count) {
    for (size_t i = 0; i < count; i++) free(targets[i].data), targets[i].data = NULL;
}

void offer_mark_fetching(offered_target *targets, size_t count, const char *hash) {
    for (size_t i = 0; i < count; i++) {
        if (strcmp(targets[i].hash, hash) == 0) targets[i].fetching = 1;
    }
}
