#include "as-device-tile.h"

#include "as-device-button.h"

#include <glib/gi18n.h>

struct _AsDeviceTile {
    GtkBox parent_instance;
    GtkButton *copy;
    GtkWidget *hand_off;
};

enum { SIGNAL_CHOSEN, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_TYPE(AsDeviceTile, as_device_tile, GTK_TYPE_BOX)

static void on_hand_off(GtkButton *button, AsDeviceTile *self) {
    (void)button;
    g_signal_emit(self, signals[SIGNAL_CHOSEN], 0, FALSE);
}

static void on_copy(GtkButton *button, AsDeviceTile *self) {
    (void)button;
    g_signal_emit(self, signals[SIGNAL_CHOSEN], 0, TRUE);
}

static void as_device_tile_dispose(GObject *object) {
    gtk_widget_dispose_template(GTK_WIDGET(object), AS_TYPE_DEVICE_TILE);
    G_OBJECT_CLASS(as_device_tile_parent_class)->dispose(object);
}

static void as_device_tile_class_init(AsDeviceTileClass *klass) {
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->dispose = as_device_tile_dispose;
    signals[SIGNAL_CHOSEN] = g_signal_new("chosen", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                          G_TYPE_BOOLEAN);
    gtk_widget_class_set_template_from_resource(widget_class, "/org/actshare/Sheet/as-device-tile.ui");
    gtk_widget_class_bind_template_child(widget_class, AsDeviceTile, copy);
    gtk_widget_class_bind_template_callback(widget_class, on_copy);
}

static void as_device_tile_init(AsDeviceTile *self) {
    gtk_widget_init_template(GTK_WIDGET(self));
}

GtkWidget *as_device_tile_new(const AsDevice *device) {
    AsDeviceTile *self = g_object_new(AS_TYPE_DEVICE_TILE, NULL);
    self->hand_off = as_device_button_new(device);
    g_signal_connect(self->hand_off, "clicked", G_CALLBACK(on_hand_off), self);
    gtk_box_prepend(GTK_BOX(self), self->hand_off);
    /* Only a paired actshare device has a clipboard to put things on. */
    gtk_widget_set_visible(GTK_WIDGET(self->copy), device->kind == AS_DEVICE_ACTSHARE);
    /* Named for a screen reader by what it does, as the hand-off button is. */
    g_autofree char *label = g_strdup_printf(_("Copy to %s’s Clipboard"), device->name);
    gtk_widget_set_tooltip_text(GTK_WIDGET(self->copy), label);
    gtk_accessible_update_property(GTK_ACCESSIBLE(self->copy), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
    return GTK_WIDGET(self);
}

const char *as_device_tile_get_device_id(AsDeviceTile *self) {
    return as_device_button_get_device_id(AS_DEVICE_BUTTON(self->hand_off));
}

AsDeviceKind as_device_tile_get_kind(AsDeviceTile *self) {
    return as_device_button_get_kind(AS_DEVICE_BUTTON(self->hand_off));
}
