#include "share-error.h"

#include <gio/gio.h>

static const GDBusErrorEntry entries[] = {
    {SHARE_ERROR_INVALID_ITEM, "org.actshare.Share.Error.InvalidItem"},
    {SHARE_ERROR_INVALID_OPTION, "org.actshare.Share.Error.InvalidOption"},
    {SHARE_ERROR_NO_ACTIVITY, "org.actshare.Share.Error.NoActivity"},
    {SHARE_ERROR_CANCELLED, "org.actshare.Share.Error.Cancelled"},
    {SHARE_ERROR_FAILED, "org.actshare.Share.Error.Failed"},
};

GQuark share_error_quark(void) {
    static gsize quark = 0;
    g_dbus_error_register_error_domain("actshare-share-error", &quark, entries, G_N_ELEMENTS(entries));
    return (GQuark)quark;
}

const char *share_error_name(ShareError code) {
    for (gsize i = 0; i < G_N_ELEMENTS(entries); i++) {
        if (entries[i].error_code == (gint)code) return entries[i].dbus_error_name;
    }
    return entries[G_N_ELEMENTS(entries) - 1].dbus_error_name;
}
