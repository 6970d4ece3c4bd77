/*
 * AsDeviceButton: a device in the choose page's row: its avatar (in the accent colour
 * when reachable; a phone for phones) and name, and for a LocalSend or KDE Connect device
 * that kind under it. One click sends the items to it.
 */
#pragma once

#include "as-conversation.h"

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AS_TYPE_DEVICE_BUTTON (as_device_button_get_type())
G_DECLARE_FINAL_TYPE(AsDeviceButton, as_device_button, AS, DEVICE_BUTTON, GtkButton)

GtkWidget *as_device_button_new(const AsDevice *device);
const char *as_device_button_get_device_id(AsDeviceButton *self);
AsDeviceKind as_device_button_get_kind(AsDeviceButton *self);

G_END_DECLS
