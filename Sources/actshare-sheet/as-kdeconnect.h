/*
 * The devices paired with KDE Connect and reachable now, as the share sheet's row shows
 * them: asked of kdeconnectd on the session bus (`deviceNames` of org.kde.kdeconnect),
 * without waiting in the window's loop and at most 3 seconds. Not started for the
 * question: when kdeconnectd does not run, there are none.
 */
#pragma once

#include "as-conversation.h"

#include <gio/gio.h>

G_BEGIN_DECLS

/* The activity of the built-in provider (manifests/kdeconnect.yaml) that sends to them. */
#define AS_KDECONNECT_ACTIVITY "org.actshare.kdeconnect"

/* Called once with the devices (AsDevice *, kind AS_DEVICE_KDECONNECT; possibly none), or
 * with NULL when `cancellable` was cancelled first. */
typedef void (*AsKdeconnectDevicesFn)(GPtrArray *devices, gpointer data);

void as_kdeconnect_find_devices(GCancellable *cancellable, AsKdeconnectDevicesFn callback, gpointer data);

G_END_DECLS
