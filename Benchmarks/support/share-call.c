/*
 * share-call URI: an application's Share call through org.actshare.Share1 (docs/DBUS.md),
 * kept on the bus until it is stopped, as an application waiting for its Response is (a
 * caller that leaves cancels its share). C and GIO, so that its own start is not what the
 * benchmark measures. Built by Benchmarks/sheet-vs-zenity.
 */
#include <gio/gio.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        g_printerr("usage: share-call URI\n");
        return 2;
    }
    g_autoptr(GError) error = NULL;
    g_autoptr(GDBusConnection) bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
    if (!bus) {
        g_printerr("share-call: %s\n", error->message);
        return 1;
    }
    const char *uris[] = {argv[1], NULL};
    GVariantBuilder items;
    g_variant_builder_init(&items, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&items, "{sv}", "uris", g_variant_new_strv(uris, -1));
    g_autoptr(GVariant) reply = g_dbus_connection_call_sync(
        bus, "org.actshare.Share", "/org/actshare/Share", "org.actshare.Share1", "Share",
        g_variant_new("(a{sv}@a{sv})", &items, g_variant_new("a{sv}", NULL)), G_VARIANT_TYPE("(o)"),
        G_DBUS_CALL_FLAGS_NONE, 10000, NULL, &error);
    if (!reply) {
        g_printerr("share-call: %s\n", error->message);
        return 1;
    }
    g_main_loop_run(g_main_loop_new(NULL, FALSE));
    return 0;
}
