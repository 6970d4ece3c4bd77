#include "as-device-button.h"

#include <glib/gi18n.h>

struct _AsDeviceButton {
    GtkButton parent_instance;
    GtkImage *avatar;
    GtkLabel *name;
    GtkLabel *kind;
    char *id;
    AsDeviceKind device_kind;
};

G_DEFINE_TYPE(AsDeviceButton, as_device_button, GTK_TYPE_BUTTON)

static void as_device_button_finalize(GObject *object) {
    g_free(AS_DEVICE_BUTTON(object)->id);
    G_OBJECT_CLASS(as_device_button_parent_class)->finalize(object);
}

static void as_device_button_dispose(GObject *object) {
    gtk_widget_dispose_template(GTK_WIDGET(object), AS_TYPE_DEVICE_BUTTON);
    G_OBJECT_CLASS(as_device_button_parent_class)->dispose(object);
}

static void as_device_button_class_init(AsDeviceButtonClass *klass) {
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->finalize = as_device_button_finalize;
    G_OBJECT_CLASS(klass)->dispose = as_device_button_dispose;
    gtk_widget_class_set_template_from_resource(widget_class, "/org/actshare/Sheet/as-device-button.ui");
    gtk_widget_class_bind_template_child(widget_class, AsDeviceButton, avatar);
    gtk_widget_class_bind_template_child(widget_class, AsDeviceButton, name);
    gtk_widget_class_bind_template_child(widget_class, AsDeviceButton, kind);
}

static void as_device_button_init(AsDeviceButton *self) {
    gtk_widget_init_template(GTK_WIDGET(self));
}

GtkWidget *as_device_button_new(const AsDevice *device) {
    AsDeviceButton *self = g_object_new(AS_TYPE_DEVICE_BUTTON, NULL);
    self->id = g_strdup(device->id);
    self->device_kind = device->kind;
    gtk_label_set_text(self->name, device->name);
    if (device->phone || device->kind == AS_DEVICE_KDECONNECT) gtk_image_set_from_icon_name(self->avatar, "phone-symbolic");
    if (!device->reachable) gtk_widget_add_css_class(GTK_WIDGET(self->avatar), "unreachable");
    /* The kind under the name, for the devices not paired with actshare. */
    const char *kind = device->kind == AS_DEVICE_LOCALSEND ? _("LocalSend") : device->kind == AS_DEVICE_KDECONNECT ? _("KDE Connect") : NULL;
    gtk_label_set_text(self->kind, kind ? kind : "");
    gtk_widget_set_visible(GTK_WIDGET(self->kind), kind != NULL);
    /* What a sighted person gathers from the colour and the caption, said in words. */
    g_autofree char *label = device->kind == AS_DEVICE_LOCALSEND    ? g_strdup_printf(_("Send to %s with LocalSend"), device->name)
                             : device->kind == AS_DEVICE_KDECONNECT ? g_strdup_printf(_("Send to %s with KDE Connect"), device->name)
                             : device->reachable                    ? g_strdup_printf(_("Hand Off to %s"), device->name)
                                 : g_strdup_printf(_("Hand Off to %s (not reachable now: the files wait until it is)"), device->name);
    gtk_widget_set_tooltip_text(GTK_WIDGET(self), label);
    gtk_accessible_update_property(GTK_ACCESSIBLE(self), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
    return GTK_WIDGET(self);
}

const char *as_device_button_get_device_id(AsDeviceButton *self) {
    return self->id;
}

AsDeviceKind as_device_button_get_kind(AsDeviceButton *self) {
    return self->device_kind;
}
