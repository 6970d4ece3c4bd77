/* actshare-clipboard-agent [--watch] [--max BYTES]: see agent.h. Started by the handoff
 * daemon with a socket on standard input and output; ends when the daemon closes it or
 * the X server goes away. */
#include "agent.h"

#include <xcb/xfixes.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void send_simple(int fd, const char *type) {
    json_object *header = json_object_new_object();
    json_object_object_add(header, "type", json_object_new_string(type));
    channel_write(fd, header, NULL, 0);
    json_object_put(header);
}

/* Reads the clipboard and tells the daemon what it holds (`push`: asked for, not a change). */
static void report(display *d, int fd, uint64_t limit, int push) {
    reading r;
    json_object *header = json_object_new_object();
    json_object_object_add(header, "type", json_object_new_string("changed"));
    json_object_object_add(header, "push", json_object_new_boolean(push));
    if (reader_read(d, d->clipboard, limit, &r) != 0) {
        json_object_object_add(header, "unanswered", json_object_new_boolean(1));
        channel_write(fd, header, NULL, 0);
        json_object_put(header);
        return;
    }
    json_object_object_add(header, "secret", json_object_new_boolean(r.secret));
    json_object_object_add(header, "too-large", json_object_new_boolean(r.too_large));
    json_object_object_add(header, "total", json_object_new_int64((int64_t)r.total));
    json_object *targets = json_object_new_array();
    const unsigned char *pieces[AGENT_MAX_TARGETS];
    uint32_t lengths[AGENT_MAX_TARGETS];
    size_t count = 0;
    for (size_t i = 0; i < r.count && !r.secret; i++) {
        json_object *target = json_object_new_object();
        json_object_object_add(target, "name", json_object_new_string(r.list[i].name));
        json_object_object_add(target, "size", json_object_new_int64(r.list[i].length));
        json_object_array_add(targets, target);
        if (!r.too_large) {
            pieces[count] = r.list[i].data;
            lengths[count++] = r.list[i].length;
        }
    }
    json_object_object_add(header, "targets", targets);
    /* Each target's bytes as they were read, not copied into one buffer first. */
    channel_write_pieces(fd, header, pieces, lengths, count);
    json_object_put(header);
    reading_free(&r);
}

/* The daemon's `own`: the targets of another device's offer. */
static void own(display *d, owner *o, int fd, json_object *header) {
    json_object *id = NULL, *list = NULL;
    if (!json_object_object_get_ex(header, "offer", &id) || !json_object_object_get_ex(header, "targets", &list) ||
        !json_object_is_type(list, json_type_array))
        return;
    offered_target targets[AGENT_MAX_TARGETS];
    size_t count = 0;
    for (size_t i = 0; i < json_object_array_length(list) && count < AGENT_MAX_TARGETS; i++) {
        json_object *entry = json_object_array_get_idx(list, i), *name = NULL, *size = NULL, *hash = NULL;
        if (!json_object_object_get_ex(entry, "name", &name) || !json_object_object_get_ex(entry, "size", &size) ||
            !json_object_object_get_ex(entry, "hash", &hash))
            continue;
        offered_target *t = &targets[count];
        memset(t, 0, sizeof *t);
        snprintf(t->name, sizeof t->name, "%s", json_object_get_string(name));
        snprintf(t->hash, sizeof t->hash, "%s", json_object_get_string(hash));
        int64_t bytes = json_object_get_int64(size);
        json_object *any = NULL;
        t->any_size = json_object_object_get_ex(entry, "any-size", &any) && json_object_get_boolean(any);
        if (bytes < 0 || bytes > 0x7FFFFFFF || !(t->atom = display_atom(d, t->name))) continue;
        t->size = (uint32_t)bytes;
        count++;
    }
    json_object *reply = json_object_new_object();
    json_object_object_add(reply, "type", json_object_new_string("owned"));
    json_object_object_add(reply, "offer", json_object_new_string(json_object_get_string(id)));
    json_object_object_add(reply, "ok", json_object_new_boolean(owner_take(o, json_object_get_string(id), targets, count) == 0));
    channel_write(fd, reply, NULL, 0);
    json_object_put(reply);
}

static const char *string_field(json_object *header, const char *key) {
    json_object *value = NULL;
    return json_object_object_get_ex(header, key, &value) && json_object_is_type(value, json_type_string) ? json_object_get_string(value) : "";
}

int main(int argc, char **argv) {
    int watch = 0;
    uint64_t limit = 64u << 20;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--watch") == 0) {
            watch = 1;
        } else if (strcmp(argv[i], "--max") == 0 && i + 1 < argc) {
            limit = strtoull(argv[++i], NULL, 10);
        } else {
            fprintf(stderr, "usage: actshare-clipboard-agent [--watch] [--max BYTES] (started by actshare's daemon)\n");
            return 2;
        }
    }
    signal(SIGPIPE, SIG_IGN);
    const int fd = 0; /* the daemon's socket, standard input and output */
    display d;
    int opened = display_open(&d);
    if (opened != 0) {
        fprintf(stderr, opened == -2 ? "the X server has no XFixes extension\n" : "cannot connect to the X display %s\n",
                getenv("DISPLAY") ? getenv("DISPLAY") : "(DISPLAY is not set)");
        return 1;
    }
    xcb_xfixes_select_selection_input(d.connection, d.window, d.clipboard,
                                      XCB_XFIXES_SELECTION_EVENT_MASK_SET_SELECTION_OWNER |
                                          XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_WINDOW_DESTROY |
                                          XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_CLIENT_CLOSE);
    xcb_flush(d.connection);
    owner *o = owner_new(&d, fd);
    if (!o) return 1;
    send_simple(fd, "ready");

    struct pollfd descriptors[2] = {{.fd = xcb_get_file_descriptor(d.connection), .events = POLLIN}, {.fd = fd, .events = POLLIN}};
    for (;;) {
        xcb_flush(d.connection);
        xcb_generic_event_t *event = display_next_queued(&d);
        if (!event) event = xcb_poll_for_event(d.connection);
        if (event) {
            if ((event->response_type & 0x7F) == d.xfixes_event + XCB_XFIXES_SELECTION_NOTIFY) {
                xcb_xfixes_selection_notify_event_t *change = (xcb_xfixes_selection_notify_event_t *)event;
                /* Our own taking is no news (an offer is never offered back). */
                if (change->selection == d.clipboard && !owner_is_ours(o, change->owner, change->selection_timestamp)) {
                    if (watch) {
                        if (change->owner == XCB_NONE) {
                            json_object *header = json_object_new_object();
                            json_object_object_add(header, "type", json_object_new_string("changed"));
                            json_object_object_add(header, "targets", json_object_new_array());
                            channel_write(fd, header, NULL, 0);
                            json_object_put(header);
                        } else {
                            report(&d, fd, limit, 0);
                        }
                    } else {
                        send_simple(fd, "owner-changed");
                    }
                }
            } else {
                owner_handle(o, event);
            }
            free(event);
            continue;
        }
        if (xcb_connection_has_error(d.connection)) {
            fprintf(stderr, "actshare-clipboard-agent: the X connection broke (error %d)\n", xcb_connection_has_error(d.connection));
            return 1;
        }
        descriptors[0].revents = descriptors[1].revents = 0;
        if (poll(descriptors, 2, 1000) < 0 && errno != EINTR) {
            perror("actshare-clipboard-agent: poll");
            return 1;
        }
        owner_expire(o);
        if (descriptors[1].revents & (POLLIN | POLLHUP | POLLERR)) {
            json_object *header;
            unsigned char *data;
            uint32_t length;
            if (channel_read(fd, (uint32_t)(limit < 0x7FFFFFFF ? limit : 0x7FFFFFFF), &header, &data, &length) != 0) return 0;
            const char *type = string_field(header, "type");
            if (strcmp(type, "read") == 0) {
                report(&d, fd, limit, 1);
            } else if (strcmp(type, "own") == 0) {
                own(&d, o, fd, header);
            } else if (strcmp(type, "release") == 0) {
                owner_release(o, string_field(header, "offer"));
            } else if (strcmp(type, "data") == 0) {
                json_object *ok = NULL;
                int good = json_object_object_get_ex(header, "ok", &ok) && json_object_get_boolean(ok);
                owner_fetched(o, string_field(header, "offer"), string_field(header, "hash"), good ? &data : NULL, length);
            }
            json_object_put(header);
            free(data);
        }
    }
}
