/*
 * actshare-clipboard-server: owns the X11 CLIPBOARD (and/or PRIMARY) selection and
 * serves every target it was given, until another client takes the selection or its
 * lifetime ends. Started by the Copy provider, which waits for its readiness line.
 *
 * Input on stdin (little-endian): u32 selections (1 clipboard, 2 primary), u32 lifetime
 * in seconds (0: until replaced), u32 target count, then per target: u32 name length,
 * name, u8 source (0: the data follows; 1: a file path follows, whose contents are read
 * here, once, so a large file is copied once rather than through the pipe), u32 length,
 * bytes. Readiness on fd 3: "ok\n" once the selections are owned
 * (ownership confirmed with the server), or "error: MESSAGE\n".
 *
 * Large data goes by the INCR protocol (ICCCM 2.7.2), in chunks the requestor pulls by
 * deleting the property.
 */
#include <xcb/xcb.h>


#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Up to this much goes in one property; more goes by INCR in chunks of this size (kept
 * under Xvfb's and Xorg's 16 MiB maximum request). */
static uint32_t incr_chunk = 4u << 20;

typedef struct target {
    char *name;
    xcb_atom_t atom;
    unsigned char *data;
    uint32_t length;
} target;

typedef struct transfer {
    xcb_window_t requestor;
    xcb_atom_t property;
    const target *target;
    uint32_t offset;
} transfer;

static target *targets;
static uint32_t target_count;
static transfer *transfers;
static size_t transfer_count;
static int ready_fd = 3;

static void fail(const char *format, ...) {
    char message[512];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, sizeof message, format, arguments);
    va_end(arguments);
    dprintf(ready_fd, "error: %s\n", message);
    exit(1);
}

static int read_all(int fd, void *buffer, size_t length) {
    unsigned char *bytes = buffer;
    while (length > 0) {
        ssize_t count = read(fd, bytes, length);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return -1;
        bytes += count;
        length -= (size_t)count;
    }
    return 0;
}

static uint32_t read_u32(void) {
    unsigned char bytes[4];
    if (read_all(0, bytes, 4) != 0) fail("truncated input");
    return bytes[0] | (bytes[1] << 8) | (bytes[2] << 16) | ((uint32_t)bytes[3] << 24);
}

static xcb_atom_t intern_reply(xcb_connection_t *connection, xcb_intern_atom_cookie_t cookie) {
    xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(connection, cookie, NULL);
    if (!reply) fail("the X server refused an atom");
    xcb_atom_t atom = reply->atom;
    free(reply);
    return atom;
}

static void notify(xcb_connection_t *connection, const xcb_selection_request_event_t *request, xcb_atom_t property) {
    /* xcb_send_event copies 32 bytes: the event goes in a buffer of that size. */
    char buffer[32];
    memset(buffer, 0, sizeof buffer);
    xcb_selection_notify_event_t *event = (xcb_selection_notify_event_t *)buffer;
    event->response_type = XCB_SELECTION_NOTIFY;
    event->time = request->time;
    event->requestor = request->requestor;
    event->selection = request->selection;
    event->target = request->target;
    event->property = property;
    xcb_send_event(connection, 0, request->requestor, XCB_EVENT_MASK_NO_EVENT, buffer);
}

int main(void) {
    /* A long-lived process keeps nothing it was not given on purpose: other descriptors
     * (a parent's pipes) would keep those open for as long as the clipboard is served. */
    close_range(4, ~0U, 0);
    uint32_t selections = read_u32();
    uint32_t lifetime = read_u32();
    target_count = read_u32();
    if (target_count == 0 || target_count > 64) fail("no targets to serve");
    targets = calloc(target_count, sizeof *targets);
    for (uint32_t i = 0; i < target_count; i++) {
        uint32_t name_length = read_u32();
        targets[i].name = calloc(1, name_length + 1);
        if (read_all(0, targets[i].name, name_length) != 0) fail("truncated input");
        unsigned char source;
        if (read_all(0, &source, 1) != 0) fail("truncated input");
        uint32_t length = read_u32();
        unsigned char *bytes = malloc(length + 1u);
        if (!bytes || read_all(0, bytes, length) != 0) fail("truncated input");
        if (source == 0) {
            targets[i].data = bytes;
            targets[i].length = length;
            continue;
        }
        bytes[length] = '\0';
        int fd = open((char *)bytes, O_RDONLY | O_CLOEXEC);
        struct stat info;
        if (fd < 0 || fstat(fd, &info) != 0 || info.st_size > 0x7FFFFFFF) fail("cannot read %s: %s", (char *)bytes, strerror(errno));
        targets[i].length = (uint32_t)info.st_size;
        targets[i].data = malloc(targets[i].length ? targets[i].length : 1);
        if (!targets[i].data || read_all(fd, targets[i].data, targets[i].length) != 0) fail("cannot read %s", (char *)bytes);
        close(fd);
        free(bytes);
    }

    int screen_number;
    xcb_connection_t *connection = xcb_connect(NULL, &screen_number);
    if (xcb_connection_has_error(connection)) fail("cannot connect to the X display %s", getenv("DISPLAY") ? getenv("DISPLAY") : "(DISPLAY unset)");
    const xcb_setup_t *setup = xcb_get_setup(connection);
    xcb_screen_iterator_t screens = xcb_setup_roots_iterator(setup);
    for (int i = 0; i < screen_number; i++) xcb_screen_next(&screens);
    xcb_screen_t *screen = screens.data;

    xcb_window_t window = xcb_generate_id(connection);
    uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
    xcb_create_window(connection, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, 1, 1, 0,
                      XCB_WINDOW_CLASS_INPUT_ONLY, screen->root_visual, XCB_CW_EVENT_MASK, &mask);

    /* All atoms in one round trip: the requests go out together, then the replies. */
    const char *fixed[] = {"CLIPBOARD", "TARGETS", "TIMESTAMP", "INCR", "ACTSHARE_TIMESTAMP"};
    xcb_intern_atom_cookie_t cookies[5 + 64];
    for (int i = 0; i < 5; i++) cookies[i] = xcb_intern_atom(connection, 0, (uint16_t)strlen(fixed[i]), fixed[i]);
    for (uint32_t i = 0; i < target_count; i++) {
        cookies[5 + i] = xcb_intern_atom(connection, 0, (uint16_t)strlen(targets[i].name), targets[i].name);
    }
    xcb_atom_t atoms[5 + 64];
    for (uint32_t i = 0; i < 5 + target_count; i++) atoms[i] = intern_reply(connection, cookies[i]);
    xcb_atom_t clipboard = atoms[0], targets_atom = atoms[1], timestamp_atom = atoms[2], incr = atoms[3], stamp = atoms[4];
    for (uint32_t i = 0; i < target_count; i++) targets[i].atom = atoms[5 + i];
    uint32_t maximum = xcb_get_maximum_request_length(connection) * 4u;
    if (maximum > 65536 && maximum - 65536 < incr_chunk) incr_chunk = maximum - 65536;

    /* A real timestamp for the ownership (ICCCM forbids CurrentTime): append nothing to a
     * property of our window and take the time of the PropertyNotify. */
    xcb_change_property(connection, XCB_PROP_MODE_APPEND, window, stamp, XCB_ATOM_STRING, 8, 0, "");
    xcb_flush(connection);
    xcb_timestamp_t now = XCB_CURRENT_TIME;
    xcb_generic_event_t *event;
    while (now == XCB_CURRENT_TIME && (event = xcb_wait_for_event(connection))) {
        if ((event->response_type & 0x7F) == XCB_PROPERTY_NOTIFY) now = ((xcb_property_notify_event_t *)event)->time;
        free(event);
    }
    if (now == XCB_CURRENT_TIME) fail("the X server closed the connection");

    xcb_atom_t owned[2];
    int owned_count = 0;
    if (selections & 1) owned[owned_count++] = clipboard;
    if (selections & 2) owned[owned_count++] = XCB_ATOM_PRIMARY;
    for (int i = 0; i < owned_count; i++) {
        xcb_set_selection_owner(connection, window, owned[i], now);
        xcb_get_selection_owner_reply_t *reply =
            xcb_get_selection_owner_reply(connection, xcb_get_selection_owner(connection, owned[i]), NULL);
        int ours = reply && reply->owner == window;
        free(reply);
        if (!ours) fail("another client kept the selection");
    }

    /* Owned: tell the provider, and stop holding its terminal and pipes. */
    dprintf(ready_fd, "ok\n");
    close(ready_fd);
    int null_fd = open("/dev/null", O_RDWR);
    dup2(null_fd, 0);
    dup2(null_fd, 1);
    dup2(null_fd, 2);
    if (null_fd > 2) close(null_fd);

    xcb_atom_t offered[66];
    offered[0] = targets_atom;
    offered[1] = timestamp_atom;
    for (uint32_t i = 0; i < target_count; i++) offered[2 + i] = targets[i].atom;

    time_t deadline = lifetime ? time(NULL) + lifetime : 0;
    int lost = 0;
    struct pollfd descriptor = {.fd = xcb_get_file_descriptor(connection), .events = POLLIN};
    for (;;) {
        xcb_flush(connection);
        event = xcb_poll_for_event(connection);
        if (!event) {
            if (xcb_connection_has_error(connection)) return 0;
            int wait = deadline ? (int)((deadline - time(NULL)) * 1000) : -1;
            if (deadline && wait <= 0) return 0;
            poll(&descriptor, 1, wait);
            continue;
        }
        switch (event->response_type & 0x7F) {
        case XCB_SELECTION_CLEAR:
            /* Another client took a selection: once all are gone, there is nothing to serve. */
            if (++lost >= owned_count && transfer_count == 0) return 0;
            break;
        case XCB_SELECTION_REQUEST: {
            xcb_selection_request_event_t *request = (xcb_selection_request_event_t *)event;
            xcb_atom_t property = request->property == XCB_NONE ? request->target : request->property;
            if (request->target == targets_atom) {
                xcb_change_property(connection, XCB_PROP_MODE_REPLACE, request->requestor, property, XCB_ATOM_ATOM, 32,
                                    2 + target_count, offered);
            } else if (request->target == timestamp_atom) {
                xcb_change_property(connection, XCB_PROP_MODE_REPLACE, request->requestor, property, XCB_ATOM_INTEGER, 32, 1, &now);
            } else {
                const target *found = NULL;
                for (uint32_t i = 0; i < target_count; i++) {
                    if (targets[i].atom == request->target) found = &targets[i];
                }
                if (!found) {
                    property = XCB_NONE;
                } else if (found->length <= incr_chunk) {
                    xcb_change_property(connection, XCB_PROP_MODE_REPLACE, request->requestor, property, found->atom, 8,
                                        found->length, found->data);
                } else {
                    /* INCR: announce the size; chunks follow as the requestor deletes the property. */
                    uint32_t events = XCB_EVENT_MASK_PROPERTY_CHANGE;
                    xcb_change_window_attributes(connection, request->requestor, XCB_CW_EVENT_MASK, &events);
                    xcb_change_property(connection, XCB_PROP_MODE_REPLACE, request->requestor, property, incr, 32, 1, &found->length);
                    transfers = realloc(transfers, (transfer_count + 1) * sizeof *transfers);
                    transfers[transfer_count++] = (transfer){request->requestor, property, found, 0};
                }
            }
            notify(connection, request, property);
            break;
        }
        case XCB_PROPERTY_NOTIFY: {
            xcb_property_notify_event_t *notice = (xcb_property_notify_event_t *)event;
            if (notice->state != XCB_PROPERTY_DELETE) break;
            for (size_t i = 0; i < transfer_count; i++) {
                transfer *t = &transfers[i];
                if (t->requestor != notice->window || t->property != notice->atom) continue;
                uint32_t chunk = t->target->length - t->offset;
                if (chunk > incr_chunk) chunk = incr_chunk;
                xcb_change_property(connection, XCB_PROP_MODE_REPLACE, t->requestor, t->property, t->target->atom, 8, chunk,
                                    t->target->data + t->offset);
                t->offset += chunk;
                if (chunk == 0) {
                    /* The empty chunk ends the transfer. */
                    uint32_t none = XCB_EVENT_MASK_NO_EVENT;
                    xcb_change_window_attributes(connection, t->requestor, XCB_CW_EVENT_MASK, &none);
                    transfers[i] = transfers[--transfer_count];
                    if (lost >= owned_count && transfer_count == 0) {
                        xcb_flush(connection);
                        return 0;
                    }
                }
                break;
            }
            break;
        }
        default:
            break;
        }
        free(event);
    }
}
