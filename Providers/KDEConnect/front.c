/*
 * Send with KDE Connect: files, URLs and text to a phone (or any device) paired with the
 * KDE Connect daemon of this session, through kdeconnectd's D-Bus interface. It is not a
 * KDE Connect implementation: kdeconnectd pairs, connects and sends; actshare never
 * speaks on port 1716 itself. Offered only while kdeconnectd runs and a paired device is
 * reachable; its can-perform says why not otherwise.
 *
 * This is the provider's library, which actshare loads for can-perform at every `actshare
 * list`: it links libc alone, answers what needs no bus (folders; nothing ever paired),
 * and only then loads the bus part beside it (Bus/, libkdeconnect-bus.so, GIO), whose
 * nine libraries cost more than the rest of a list.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "Bus/kdeconnect.h"
#include "sibling.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

ACTSHARE_EXPORT int32_t kdeconnect_can_perform(const actshare_request *request);
ACTSHARE_EXPORT int32_t kdeconnect_send(const actshare_request *request, actshare_session *session);

/* Whether a device was ever paired with KDE Connect here: its list of them
 * (kdeconnect/trusted_devices in the config folder) is there and not empty. */
static int ever_paired(void) {
    const char *config = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    char path[4096];
    if (config && config[0] == '/') {
        snprintf(path, sizeof path, "%s/kdeconnect/trusted_devices", config);
    } else if (home && home[0] == '/') {
        snprintf(path, sizeof path, "%s/.config/kdeconnect/trusted_devices", home);
    } else {
        return 0;
    }
    struct stat info;
    return stat(path, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0;
}

/* Why the items cannot go through KDE Connect, or NULL: it sends files, URLs and text,
 * not folders. */
static const char *unsendable(const actshare_request *request) {
    for (size_t i = 0; i < request->item_count; i++) {
        const actshare_item *item = &request->items[i];
        struct stat info;
        if (item->kind == ACTSHARE_ITEM_FILE && (!item->path || stat(item->path, &info) != 0 || !S_ISREG(info.st_mode))) {
            return "KDE Connect sends files, URLs and text, not folders";
        }
    }
    return NULL;
}

int32_t kdeconnect_can_perform(const actshare_request *request) {
    const char *not_this = unsendable(request);
    if (not_this) {
        actshare_decline(request, not_this);
        return 0;
    }
    if (!ever_paired()) {
        actshare_decline(request, "No device is paired with KDE Connect: pair a phone in KDE Connect first");
        return 0;
    }
    char error[512];
    int32_t (*ask)(const actshare_request *) = (int32_t (*)(const actshare_request *))sibling_symbol(
        (const void *)kdeconnect_can_perform, KDECONNECT_BUS_LIBRARY, "kdeconnect_bus_can_perform", error, sizeof error);
    if (!ask) {
        actshare_decline(request, error);
        return 0;
    }
    return ask(request);
}

int32_t kdeconnect_send(const actshare_request *request, actshare_session *session) {
    const char *not_this = unsendable(request);
    if (not_this) {
        session->set_error(session, not_this);
        return ACTSHARE_STATUS_BAD_INPUT;
    }
    char error[512];
    int32_t (*send)(const actshare_request *, actshare_session *) = (int32_t (*)(const actshare_request *, actshare_session *))sibling_symbol(
        (const void *)kdeconnect_can_perform, KDECONNECT_BUS_LIBRARY, "kdeconnect_bus_send", error, sizeof error);
    if (!send) {
        session->set_error(session, error);
        return ACTSHARE_STATUS_FAILED;
    }
    return send(request, session);
}
