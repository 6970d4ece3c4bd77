/* The frames' contents, both ways (docs/PROTOCOL.md, "The clipboard agent"): what the
 * agent tells the daemon, and the daemon's requests handed to a back end. The same for
 * either back end. */
#include "agent.h"

#include <stdlib.h>
#include <string.h>

void report_simple(int fd, const char *type) {
    json_object *header = json_object_new_object();
    json_object_object_add(header, "type", json_object_new_string(type));
    channel_write(fd, header, NULL, 0);
    json_object_put(header);
}

void report_ready(int fd, const char *display) {
    json_object *header = json_object_new_object();
    json_object_object_add(header, "type", json_object_new_string("ready"));
    json_object_object_add(header, "display", json_object_new_string(display));
    channel_write(fd, header, NULL, 0);
    json_object_put(header);
}

void report_reading(int fd, int result, reading *r, int push) {
    json_object *header = json_object_new_object();
    json_object_object_add(header, "type", json_object_new_string("changed"));
    json_object_object_add(header, "push", json_object_new_boolean(push));
    if (result != 0) {
        json_object_object_add(header, "unanswered", json_object_new_boolean(1));
        channel_write(fd, header, NULL, 0);
        json_object_put(header);
        return;
    }
    json_object_object_add(header, "secret", json_object_new_boolean(r->secret));
    if (r->hint_unread) json_object_object_add(header, "hint-unread", json_object_new_boolean(1));
    json_object_object_add(header, "too-large", json_object_new_boolean(r->too_large));
    json_object_object_add(header, "total", json_object_new_int64((int64_t)r->total));
    json_object *targets = json_object_new_array();
    const unsigned char *pieces[AGENT_MAX_TARGETS];
    uint32_t lengths[AGENT_MAX_TARGETS];
    size_t count = 0;
    for (size_t i = 0; i < r->count && !r->secret; i++) {
        json_object *target = json_object_new_object();
        json_object_object_add(target, "name", json_object_new_string(r->list[i].name));
        json_object_object_add(target, "size", json_object_new_int64(r->list[i].length));
        if (r->list[i].hash[0] && !r->too_large) json_object_object_add(target, "hash", json_object_new_string(r->list[i].hash));
        json_object_array_add(targets, target);
        if (!r->too_large) {
            pieces[count] = r->list[i].data;
            lengths[count++] = r->list[i].length;
        }
    }
    json_object_object_add(header, "targets", targets);
    /* Each target's bytes as they were read, not copied into one buffer first. */
    channel_write_pieces(fd, header, pieces, lengths, count);
    json_object_put(header);
    reading_free(r);
}

void report_cleared(int fd) {
    json_object *header = json_object_new_object();
    json_object_object_add(header, "type", json_object_new_string("changed"));
    json_object_object_add(header, "targets", json_object_new_array());
    channel_write(fd, header, NULL, 0);
    json_object_put(header);
}

void report_fetch(int fd, const char *offer, const offered_target *t) {
    json_object *header = json_object_new_object();
    json_object_object_add(header, "type", json_object_new_string("fetch"));
    json_object_object_add(header, "offer", json_object_new_string(offer));
    json_object_object_add(header, "hash", json_object_new_string(t->hash));
    json_object_object_add(header, "target", json_object_new_string(t->name));
    channel_write(fd, header, NULL, 0);
    json_object_put(header);
}

void report_offer(int fd, const char *type, const char *offer, int ok) {
    json_object *header = json_object_new_object();
    json_object_object_add(header, "type", json_object_new_string(type));
    json_object_object_add(header, "offer", json_object_new_string(offer));
    if (ok >= 0) json_object_object_add(header, "ok", json_object_new_boolean(ok));
    channel_write(fd, header, NULL, 0);
    json_object_put(header);
}

const char *header_string(json_object *header, const char *key) {
    json_object *value = NULL;
    return json_object_object_get_ex(header, key, &value) && json_object_is_type(value, json_type_string) ? json_object_get_string(value) : "";
}

int frames_receive(int fd, uint64_t limit, const backend *b, void *self) {
    json_object *header;
    unsigned char *data;
    uint32_t length;
    if (channel_read(fd, (uint32_t)(limit < 0x7FFFFFFF ? limit : 0x7FFFFFFF), &header, &data, &length) != 0) return -1;
    const char *type = header_string(header, "type");
    if (strcmp(type, "read") == 0) {
        reading r;
        report_reading(fd, b->read(self, &r), &r, 1);
    } else if (strcmp(type, "own") == 0) {
        offered_target targets[AGENT_MAX_TARGETS];
        const char *id;
        size_t count = offer_parse(header, &id, targets);
        if (id) report_offer(fd, "owned", id, b->own(self, id, targets, count) == 0);
    } else if (strcmp(type, "release") == 0) {
        b->release(self, header_string(header, "offer"));
    } else if (strcmp(type, "data") == 0) {
        json_object *ok = NULL, *more = NULL;
        fetched piece = {header_string(header, "offer"), header_string(header, "hash"), &data, length,
                         !(json_object_object_get_ex(header, "more", &more) && json_object_get_boolean(more)),
                         json_object_object_get_ex(header, "ok", &ok) && json_object_get_boolean(ok)};
        b->fetched(self, &piece);
    }
    json_object_put(header);
    free(data);
    return 0;
}
