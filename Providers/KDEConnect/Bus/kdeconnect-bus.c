/*
 * Send with KDE Connect, the part on the session bus (GIO): kdeconnectd's D-Bus
 * interface (org.kde.kdeconnect: the daemon's `deviceNames`, each device's `share` plugin
 * with `shareUrl` and `shareText`). The provider's own library (../front.c) links libc
 * alone and loads this one only once a device was ever paired here, so that `actshare
 * list` does not load GIO where KDE Connect is not used.
 *
 * Every call has a time limit (kdeconnectd may hang); device ids are checked before they
 * become object paths; a device's name (the phone's own) is only shown.
 */
#include "kdeconnect.h"

#include <gio/gio.h>

#include <stdio.h>
#include <string.h>

#define KDECONNECT_NAME "org.kde.kdeconnect"
#define KDECONNECT_PATH "/modules/kdeconnect"
#define KDECONNECT_DAEMON "org.kde.kdeconnect.daemon"
#define KDECONNECT_SHARE "org.kde.kdeconnect.device.share"
/* Milliseconds a call to kdeconnectd may take. */
#define CALL_MS 3000
/* The option naming the device, by id or by name. */
#define DEVICE_OPTION "device"

/* The session bus, or NULL with a reason. */
static GDBusConnection *session_bus(char *why, size_t size) {
    GError *error = NULL;
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
    if (!bus) {
        snprintf(why, size, "KDE Connect cannot be reached: no session bus (%s)", error ? error->message : "?");
        g_clear_error(&error);
    }
    return bus;
}

/* Whether kdeconnectd owns its name now (it is not started for a question). */
static int daemon_runs(GDBusConnection *bus) {
    GVariant *reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                                                  g_variant_new("(s)", KDECONNECT_NAME), G_VARIANT_TYPE("(b)"), G_DBUS_CALL_FLAGS_NONE, CALL_MS,
                                                  NULL, NULL);
    gboolean owned = FALSE;
    if (reply) {
        g_variant_get(reply, "(b)", &owned);
        g_variant_unref(reply);
    }
    return owned;
}

/* The paired devices reachable now: id → name (a{ss}), or NULL. */
static GVariant *paired_devices(GDBusConnection *bus, gboolean only_reachable) {
    GVariant *reply = g_dbus_connection_call_sync(bus, KDECONNECT_NAME, KDECONNECT_PATH, KDECONNECT_DAEMON, "deviceNames",
                                                  g_variant_new("(bb)", only_reachable, TRUE), G_VARIANT_TYPE("(a{ss})"),
                                                  G_DBUS_CALL_FLAGS_NO_AUTO_START, CALL_MS, NULL, NULL);
    if (!reply) return NULL;
    GVariant *devices = g_variant_get_child_value(reply, 0);
    g_variant_unref(reply);
    return devices;
}

/* A device id kdeconnectd gave, fit for an object path element (it makes them of letters,
 * digits and '_'); 0 otherwise. */
static int is_device_id(const char *id) {
    size_t length = strlen(id);
    if (length == 0 || length > 128) return 0;
    for (size_t i = 0; i < length; i++) {
        char c = id[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return 0;
    }
    return 1;
}

int32_t kdeconnect_bus_can_perform(const actshare_request *request) {
    char why[512];
    GDBusConnection *bus = session_bus(why, sizeof why);
    if (!bus) {
        actshare_decline(request, why);
        return 0;
    }
    int32_t answer = 0;
    GVariant *devices = NULL;
    if (!daemon_runs(bus)) {
        actshare_decline(request, "KDE Connect is not running (kdeconnectd): start it, and pair a phone in KDE Connect");
    } else if (!(devices = paired_devices(bus, TRUE)) || g_variant_n_children(devices) == 0) {
        actshare_decline(request, "No device paired with KDE Connect is reachable now: open KDE Connect on the phone, on this network");
    } else {
        answer = 1;
        /* Each reachable paired device is a target, as kdeconnectd names it. */
        GVariantIter iter;
        const char *id, *name;
        g_variant_iter_init(&iter, devices);
        while (g_variant_iter_next(&iter, "{&s&s}", &id, &name)) {
            actshare_target target = {sizeof target, ACTSHARE_TARGET_DEVICE, id, name, "KDE Connect", "phone"};
            actshare_add_target(request, &target);
        }
    }
    if (devices) g_variant_unref(devices);
    g_object_unref(bus);
    return answer;
}

/* The device to send to: the one `wanted` names (its id, or its name), or the only one
 * reachable. Its id and name are copied out; 0, or -1 with the error said. */
/* Whether `wanted` is the id of a device in `devices` (its name copied out). */
static int has_id(GVariant *devices, const char *wanted, char *name, size_t name_size) {
    GVariantIter iter;
    const char *each_id, *each_name;
    g_variant_iter_init(&iter, devices);
    while (g_variant_iter_next(&iter, "{&s&s}", &each_id, &each_name)) {
        if (strcmp(wanted, each_id) == 0) {
            snprintf(name, name_size, "%s", each_name);
            return 1;
        }
    }
    return 0;
}

/* `wanted` names a device by id if it is the id of any paired device, reachable or not:
 * then only that device matches, never another whose name is that id (a device may call
 * itself anything). Otherwise it names reachable devices by name. */
static int choose_device(GVariant *devices, GVariant *paired, const char *wanted, char *id, size_t id_size, char *name,
                         size_t name_size, actshare_session *session) {
    GVariantIter iter;
    const char *each_id, *each_name;
    int found = 0;
    char error[1024];
    if (wanted && *wanted && paired && has_id(paired, wanted, name, name_size) && !has_id(devices, wanted, name, name_size)) {
        snprintf(error, sizeof error, "%s (%s) is paired with KDE Connect but not reachable now: open KDE Connect on it, on this network",
                 name, wanted);
        session->set_error(session, error);
        return -1;
    }
    int by_id = wanted && *wanted && has_id(devices, wanted, name, name_size);
    GString *names = g_string_new(NULL);
    g_variant_iter_init(&iter, devices);
    while (g_variant_iter_next(&iter, "{&s&s}", &each_id, &each_name)) {
        if (!is_device_id(each_id)) continue;
        if (names->len) g_string_append(names, ", ");
        g_string_append(names, each_name);
        int matches = wanted && *wanted ? (by_id ? strcmp(wanted, each_id) == 0 : g_utf8_collate(wanted, each_name) == 0) : 1;
        if (matches) {
            found++;
            snprintf(id, id_size, "%s", each_id);
            snprintf(name, name_size, "%s", each_name);
        }
    }
    int result = 0;
    if (found == 0 && wanted && *wanted) {
        snprintf(error, sizeof error, "no device paired with KDE Connect and reachable now is called %s (reachable: %s)", wanted,
                 names->len ? names->str : "none");
        result = -1;
    } else if (found == 0) {
        snprintf(error, sizeof error, "no device paired with KDE Connect is reachable now");
        result = -1;
    } else if (found > 1) {
        snprintf(error, sizeof error, "several KDE Connect devices are reachable (%s): choose one with --option device=NAME", names->str);
        result = -1;
    }
    if (result) session->set_error(session, error);
    g_string_free(names, TRUE);
    return result;
}

int32_t kdeconnect_bus_send(const actshare_request *request, actshare_session *session) {
    char why[512];
    GDBusConnection *bus = session_bus(why, sizeof why);
    if (!bus) {
        session->set_error(session, why);
        return ACTSHARE_STATUS_FAILED;
    }
    GVariant *devices = daemon_runs(bus) ? paired_devices(bus, TRUE) : NULL;
    if (!devices) {
        session->set_error(session, "KDE Connect is not running (kdeconnectd): start it, and pair a phone in KDE Connect");
        g_object_unref(bus);
        return ACTSHARE_STATUS_FAILED;
    }
    char id[160], name[256];
    GVariant *paired = paired_devices(bus, FALSE);
    /* The target chosen (its id), or the option `device` scripts name it by. */
    const char *wanted = actshare_request_target(request);
    if (!wanted) wanted = session->option(session, DEVICE_OPTION);
    int chosen = choose_device(devices, paired, wanted, id, sizeof id, name, sizeof name, session);
    if (paired) g_variant_unref(paired);
    if (chosen != 0) {
        g_variant_unref(devices);
        g_object_unref(bus);
        return ACTSHARE_STATUS_BAD_INPUT;
    }
    g_variant_unref(devices);
    char path[256];
    snprintf(path, sizeof path, KDECONNECT_PATH "/devices/%s/share", id);
    int32_t status = ACTSHARE_STATUS_DONE;
    size_t sent = 0;
    for (size_t i = 0; i < request->item_count && status == ACTSHARE_STATUS_DONE; i++) {
        if (session->is_cancelled(session)) {
            status = ACTSHARE_STATUS_CANCELLED;
            break;
        }
        const actshare_item *item = &request->items[i];
        const char *method = item->kind == ACTSHARE_ITEM_TEXT ? "shareText" : "shareUrl";
        const char *value = item->kind == ACTSHARE_ITEM_TEXT ? item->text : item->uri;
        if (!value || (item->kind != ACTSHARE_ITEM_TEXT && item->kind != ACTSHARE_ITEM_URL && item->kind != ACTSHARE_ITEM_FILE)) {
            session->set_error(session, "KDE Connect sends files, URLs and text");
            status = ACTSHARE_STATUS_BAD_INPUT;
            break;
        }
        GError *error = NULL;
        GVariant *reply = g_dbus_connection_call_sync(bus, KDECONNECT_NAME, path, KDECONNECT_SHARE, method, g_variant_new("(s)", value), NULL,
                                                      G_DBUS_CALL_FLAGS_NO_AUTO_START, CALL_MS, NULL, &error);
        if (!reply) {
            char said[1024];
            snprintf(said, sizeof said, "KDE Connect did not take the item for %s: %s", name, error ? error->message : "no answer");
            session->set_error(session, said);
            status = ACTSHARE_STATUS_FAILED;
        } else {
            g_variant_unref(reply);
            sent++;
        }
        g_clear_error(&error);
    }
    if (status == ACTSHARE_STATUS_DONE) {
        char said[512];
        snprintf(said, sizeof said, "sent %zu item%s to %s with KDE Connect", sent, sent == 1 ? "" : "s", name);
        session->return_item(session, ACTSHARE_ITEM_TEXT, said, NULL);
    }
    g_object_unref(bus);
    return status;
}
