/*
 * AsDeviceButton: a paired device in the choose page's row: its avatar (in the accent
 * colour when reachable) and name. One click hands the items off to it.
 */
#pragma once

#include "as-conversation.h"

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AS_TYPE_DEVICE_BUTTON (as_device_button_get_type())
G_DECLARE_FINAL_TYPE(AsDeviceButton, as_device_button, AS, DEVICE_BUTTON, GtkButton)

GtkWidget *as_device_button_new(const AsDevice *device);
const char *as_device_button_get_device_id(AsDeviceButton *self);

G_END_DECLS
