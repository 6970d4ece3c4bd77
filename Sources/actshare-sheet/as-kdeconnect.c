#include "as-kdeconnect.h"

#include <string.h>

/* No more devices than the row shows from actshare. */
#define MAX_DEVICES 8
#define CALL_MS 3000

typedef struct {
    GCancellable *cancellable;
    AsKdeconnectDevicesFn callback;
    gpointer data;
} Lookup;

static void finish(Lookup *lookup, GPtrArray *devices) {
    gboolean cancelled = lookup->cancellable && g_cancellable_is_cancelled(lookup->cancellable);
    lookup->callback(cancelled ? NULL : devices, lookup->data);
    g_clear_object(&lookup->cancellable);
    g_free(lookup);
}

/* An id kdeconnectd made (letters, digits, '_'): it becomes an option's value. */
static gboolean is_device_id(const char *id) {
    size_t length = strlen(id);
    if (length == 0 || length > 128) return FALSE;
    for (size_t i = 0; i < length; i++) {
        if (!g_ascii_isalnum(id[i]) && id[i] != '_') return FALSE;
    }
    return TRUE;
}

static void on_names(GObject *source, GAsyncResult *result, gpointer data) {
    Lookup *lookup = data;
    g_autoptr(GPtrArray) devices = g_ptr_array_new_with_free_func(as_device_free);
    g_autoptr(GVariant) reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, NULL);
    if (reply && g_variant_is_of_type(reply, G_VARIANT_TYPE("(a{ss})"))) {
        g_autoptr(GVariant) names = g_variant_get_child_value(reply, 0);
        GVariantIter iter;
        const char *id, *name;
        g_variant_iter_init(&iter, names);
        while (devices->len < MAX_DEVICES && g_variant_iter_next(&iter, "{&s&s}", &id, &name)) {
            if (!is_device_id(id) || !g_utf8_validate(name, -1, NULL)) continue;
            AsDevice *device = g_new0(AsDevice, 1);
            device->id = g_strdup(id);
            device->name = g_strdup(name);
            device->kind = AS_DEVICE_KDECONNECT;
            device->phone = TRUE;
            device->reachable = TRUE;
            g_ptr_array_add(devices, device);
        }
    }
    finish(lookup, devices);
}

static void on_bus(GObject *source, GAsyncResult *result, gpointer data) {
    (void)source;
    Lookup *lookup = data;
    g_autoptr(GDBusConnection) bus = g_bus_get_finish(result, NULL);
    if (!bus) {
        g_autoptr(GPtrArray) none = g_ptr_array_new_with_free_func(as_device_free);
        finish(lookup, none);
        return;
    }
    g_dbus_connection_call(bus, "org.kde.kdeconnect", "/modules/kdeconnect", "org.kde.kdeconnect.daemon", "deviceNames",
                           g_variant_new("(bb)", TRUE, TRUE), G_VARIANT_TYPE("(a{ss})"), G_DBUS_CALL_FLAGS_NO_AUTO_START, CALL_MS,
                           lookup->cancellable, on_names, lookup);
}

void as_kdeconnect_find_devices(GCancellable *cancellable, AsKdeconnectDevicesFn callback, gpointer data) {
    Lookup *lookup = g_new0(Lookup, 1);
    lookup->cancellable = cancellable ? g_object_ref(cancellable) : NULL;
    lookup->callback = callback;
    lookup->data = data;
    g_bus_get(G_BUS_TYPE_SESSION, cancellable, on_bus, lookup);
}
