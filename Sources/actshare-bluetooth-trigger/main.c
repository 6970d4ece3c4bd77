/*
 * actshare-bluetooth-trigger [--seconds N]: Quick Share's Bluetooth LE signal, sent while
 * the daemon looks for phones (docs/PROTOCOL.md, "Quick Share"). A phone with Quick Share
 * advertises itself on the local network only after a sender's "Fast Initiation" signal
 * has been heard; this program asks BlueZ to broadcast it on the first powered adapter that
 * can advertise, through org.bluez.LEAdvertisingManager1 on the system bus
 * (org.bluez.LEAdvertisement1.xml).
 *
 * It tells the daemon, on standard output, one line of:
 *   advertising ADAPTER      the signal is on the air (ADAPTER: hci0, …)
 *   unavailable REASON       it cannot be sent: no-bus, no-bluez, no-adapter, powered-off,
 *                            no-le (no adapter can advertise), refused (BlueZ said no)
 * and later, while advertising, possibly `released` (BlueZ took it back: the adapter went
 * away or off), after which it exits.
 *
 * It stops, withdrawing the advertisement, when its standard input ends (the daemon closed
 * it, or is gone), on SIGTERM or SIGINT, or after N seconds (default 300): never left on
 * the air by a daemon that died. Exit status: 0 after advertising, 3 when unavailable,
 * 1 on a failure of its own.
 */
#include "bluez-advertising.h"

#include <gio/gio.h>
#include <glib-unix.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

/* The Fast Initiation signal: service data under the 16-bit UUID 0xFE2C (Google's), whose
 * first three bytes are Nearby Share's model id, then its version (1) and its kind (0x42:
 * a sender looking for receivers), nine reserved zero bytes, and ten random bytes, new for
 * each signal, that let phones tell one sender from another. 24 bytes: with the service
 * data's own four and the flags, the 31 a legacy advertisement holds. */
#define FAST_INITIATION_UUID "0000fe2c-0000-1000-8000-00805f9b34fb"
#define FAST_INITIATION_SIZE 24
#define FAST_INITIATION_RANDOM 10
static const guint8 fast_initiation_prefix[] = {0xFC, 0x12, 0x8E, 0x01, 0x42};

/* How long one call to BlueZ may take: a hung bluetoothd must not hold the daemon's look. */
#define BLUEZ_CALL_MS 5000
#define DEFAULT_SECONDS 300
#define MAX_SECONDS 3600

/* Where the advertisement is exported; one per process, as each trigger is its own client. */
#define ADVERTISEMENT_PATH "/org/actshare/QuickShare/advertisement"

static GMainLoop *loop;
static int exit_status;
static gboolean registered;

static void say(const char *line) {
    /* One line, flushed: the daemon reads each as it comes. */
    printf("%s\n", line);
    fflush(stdout);
}

static void unavailable(const char *reason, const char *detail) {
    g_autofree char *line = g_strdup_printf("unavailable %s", reason);
    say(line);
    if (detail != NULL) g_printerr("actshare-bluetooth-trigger: %s\n", detail);
    exit_status = 3;
}

/* The signal's service data: the prefix above, reserved zeros, then fresh random bytes. */
static GVariant *fast_initiation_data(void) {
    guint8 bytes[FAST_INITIATION_SIZE] = {0};
    memcpy(bytes, fast_initiation_prefix, sizeof fast_initiation_prefix);
    guint8 *random = bytes + FAST_INITIATION_SIZE - FAST_INITIATION_RANDOM;
    if (getrandom(random, FAST_INITIATION_RANDOM, 0) != FAST_INITIATION_RANDOM) {
        for (int i = 0; i < FAST_INITIATION_RANDOM; i++) random[i] = (guint8)g_random_int_range(0, 256);
    }
    GVariantBuilder data;
    g_variant_builder_init(&data, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&data, "{sv}", FAST_INITIATION_UUID,
                          g_variant_new_fixed_array(G_VARIANT_TYPE_BYTE, bytes, sizeof bytes, 1));
    return g_variant_builder_end(&data);
}

/* Among BlueZ's objects (GetManagedObjects' a{oa{sa{sv}}}), the first adapter, by path, that
 * is powered and has an advertising manager; NULL with `reason` set when there is none. */
static char *choose_adapter(GVariant *objects, const char **reason) {
    char *chosen = NULL;
    gboolean any = FALSE, powered_any = FALSE;
    GVariantIter iter;
    const char *path;
    GVariant *interfaces;
    g_variant_iter_init(&iter, objects);
    while (g_variant_iter_loop(&iter, "{&o@a{sa{sv}}}", &path, &interfaces)) {
        g_autoptr(GVariant) adapter = g_variant_lookup_value(interfaces, "org.bluez.Adapter1", G_VARIANT_TYPE("a{sv}"));
        if (adapter == NULL) continue;
        any = TRUE;
        gboolean powered = FALSE;
        if (!g_variant_lookup(adapter, "Powered", "b", &powered) || !powered) continue;
        powered_any = TRUE;
        g_autoptr(GVariant) manager = g_variant_lookup_value(interfaces, "org.bluez.LEAdvertisingManager1", NULL);
        if (manager != NULL && (chosen == NULL || strcmp(path, chosen) < 0)) {
            g_free(chosen);
            chosen = g_strdup(path);
        }
    }
    if (chosen == NULL) *reason = !any ? "no-adapter" : !powered_any ? "powered-off" : "no-le";
    return chosen;
}

static gboolean on_release(BluezLEAdvertisement1 *advertisement, GDBusMethodInvocation *invocation, gpointer data) {
    (void)data;
    bluez_leadvertisement1_complete_release(advertisement, invocation);
    registered = FALSE;
    say("released");
    g_main_loop_quit(loop);
    return TRUE;
}

typedef struct {
    char *adapter_path;
} Registration;

static void on_registered(GObject *source, GAsyncResult *result, gpointer data) {
    Registration *registration = data;
    g_autoptr(GError) error = NULL;
    if (!bluez_leadvertising_manager1_call_register_advertisement_finish(BLUEZ_LEADVERTISING_MANAGER1(source), result, &error)) {
        g_autofree char *name = g_dbus_error_get_remote_error(error);
        unavailable("refused", name != NULL ? name : error->message);
        g_main_loop_quit(loop);
        return;
    }
    registered = TRUE;
    g_autofree char *line = g_strdup_printf("advertising %s", strrchr(registration->adapter_path, '/') + 1);
    say(line);
}

/* Standard input readable or closed: the daemon's end. Anything it writes is ignored; its
 * end of file stops the signal. */
static gboolean on_input(gint fd, GIOCondition condition, gpointer data) {
    (void)data;
    char buffer[256];
    ssize_t count = (condition & G_IO_IN) ? read(fd, buffer, sizeof buffer) : 0;
    if (count > 0) return G_SOURCE_CONTINUE;
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

static gboolean on_stop(gpointer data) {
    (void)data;
    g_main_loop_quit(loop);
    return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
    long seconds = DEFAULT_SECONDS;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
            char *end = NULL;
            seconds = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end != '\0' || seconds < 1 || seconds > MAX_SECONDS) {
                fprintf(stderr, "actshare-bluetooth-trigger: --seconds takes 1 to %d\n", MAX_SECONDS);
                return 2;
            }
        } else {
            fprintf(stderr, "usage: actshare-bluetooth-trigger [--seconds N]\n");
            return 2;
        }
    }

    g_autoptr(GError) error = NULL;
    g_autoptr(GDBusConnection) bus = g_bus_get_sync(G_BUS_TYPE_SYSTEM, NULL, &error);
    if (bus == NULL) {
        unavailable("no-bus", error->message);
        return exit_status;
    }
    g_autoptr(GVariant) reply = g_dbus_connection_call_sync(bus, "org.bluez", "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects",
                                                            NULL, G_VARIANT_TYPE("(a{oa{sa{sv}}})"), G_DBUS_CALL_FLAGS_NO_AUTO_START,
                                                            BLUEZ_CALL_MS, NULL, &error);
    if (reply == NULL) {
        unavailable("no-bluez", error->message);
        return exit_status;
    }
    g_autoptr(GVariant) objects = g_variant_get_child_value(reply, 0);
    const char *reason = NULL;
    g_autofree char *adapter_path = choose_adapter(objects, &reason);
    if (adapter_path == NULL) {
        unavailable(reason, NULL);
        return exit_status;
    }

    g_autoptr(BluezLEAdvertisement1) advertisement = bluez_leadvertisement1_skeleton_new();
    bluez_leadvertisement1_set_type_(advertisement, "broadcast");
    bluez_leadvertisement1_set_service_data(advertisement, fast_initiation_data());
    g_signal_connect(advertisement, "handle-release", G_CALLBACK(on_release), NULL);
    if (!g_dbus_interface_skeleton_export(G_DBUS_INTERFACE_SKELETON(advertisement), bus, ADVERTISEMENT_PATH, &error)) {
        g_printerr("actshare-bluetooth-trigger: cannot export the advertisement: %s\n", error->message);
        return 1;
    }
    g_autoptr(BluezLEAdvertisingManager1) manager = bluez_leadvertising_manager1_proxy_new_sync(
        bus, G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES | G_DBUS_PROXY_FLAGS_DO_NOT_CONNECT_SIGNALS | G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START,
        "org.bluez", adapter_path, NULL, &error);
    if (manager == NULL) {
        unavailable("no-bluez", error->message);
        return exit_status;
    }
    g_dbus_proxy_set_default_timeout(G_DBUS_PROXY(manager), BLUEZ_CALL_MS);

    loop = g_main_loop_new(NULL, FALSE);
    Registration registration = {adapter_path};
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE("a{sv}"));
    bluez_leadvertising_manager1_call_register_advertisement(manager, ADVERTISEMENT_PATH, g_variant_builder_end(&options), NULL,
                                                             on_registered, &registration);
    g_unix_fd_add(STDIN_FILENO, G_IO_IN | G_IO_HUP | G_IO_ERR, on_input, NULL);
    g_unix_signal_add(SIGTERM, on_stop, NULL);
    g_unix_signal_add(SIGINT, on_stop, NULL);
    g_timeout_add_seconds((guint)seconds, on_stop, NULL);
    g_main_loop_run(loop);

    if (registered) {
        g_autoptr(GError) ignored = NULL;
        bluez_leadvertising_manager1_call_unregister_advertisement_sync(manager, ADVERTISEMENT_PATH, NULL, &ignored);
    }
    g_dbus_interface_skeleton_unexport(G_DBUS_INTERFACE_SKELETON(advertisement));
    g_main_loop_unref(loop);
    return exit_status;
}
