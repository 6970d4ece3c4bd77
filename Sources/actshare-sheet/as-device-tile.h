/*
 * AsDeviceTile: a device in the choose page's row: its AsDeviceButton, which sends the
 * items to it, and under it, for a paired actshare device, a smaller button that puts
 * them on its clipboard instead ("Copy to device": pasted there when wanted).
 *
 * Signals:
 *   chosen (gboolean clipboard)   one of the two was pressed
 */
#pragma once

#include "as-conversation.h"

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AS_TYPE_DEVICE_TILE (as_device_tile_get_type())
G_DECLARE_FINAL_TYPE(AsDeviceTile, as_device_tile, AS, DEVICE_TILE, GtkBox)

GtkWidget *as_device_tile_new(const AsDevice *device);
const char *as_device_tile_get_device_id(AsDeviceTile *self);
AsDeviceKind as_device_tile_get_kind(AsDeviceTile *self);

G_END_DECLS
