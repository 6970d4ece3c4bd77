#include "as-target-button.h"

#include <glib/gi18n.h>

struct _AsTargetButton {
    GtkButton parent_instance;
    GtkImage *avatar;
    GtkLabel *name;
    GtkLabel *subtitle;
};

G_DEFINE_TYPE(AsTargetButton, as_target_button, GTK_TYPE_BUTTON)

static void as_target_button_dispose(GObject *object) {
    gtk_widget_dispose_template(GTK_WIDGET(object), AS_TYPE_TARGET_BUTTON);
    G_OBJECT_CLASS(as_target_button_parent_class)->dispose(object);
}

static void as_target_button_class_init(AsTargetButtonClass *klass) {
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->dispose = as_target_button_dispose;
    gtk_widget_class_set_template_from_resource(widget_class, "/org/actshare/Sheet/as-target-button.ui");
    gtk_widget_class_bind_template_child(widget_class, AsTargetButton, avatar);
    gtk_widget_class_bind_template_child(widget_class, AsTargetButton, name);
    gtk_widget_class_bind_template_child(widget_class, AsTargetButton, subtitle);
}

static void as_target_button_init(AsTargetButton *self) {
    gtk_widget_init_template(GTK_WIDGET(self));
}

char *as_target_describe(const char *activity_title, const AsTarget *target) {
    /* TRANSLATORS: what pressing a target does: an activity and where to ("Hand Off: beta") */
    g_autofree char *action = g_strdup_printf(_("%s: %s"), activity_title, target->title);
    /* TRANSLATORS: a target's description and its second line ("…: beta, not reachable now") */
    return target->subtitle ? g_strdup_printf(_("%s, %s"), action, target->subtitle) : g_steal_pointer(&action);
}

/* The icon of a target without one of its own, by its kind. */
static const char *kind_icon(const char *kind) {
    if (g_strcmp0(kind, "person") == 0) return "avatar-default-symbolic";
    if (g_strcmp0(kind, "app") == 0) return "application-x-executable";
    if (g_strcmp0(kind, "place") == 0) return "folder-symbolic";
    return "computer-symbolic";
}

GtkWidget *as_target_button_new(const AsActivity *activity, const AsTarget *target) {
    AsTargetButton *self = g_object_new(AS_TYPE_TARGET_BUTTON, NULL);
    gtk_label_set_text(self->name, target->title);
    /* A theme's icon of that name, or the kind's: a name the theme lacks would draw a
     * broken image. */
    GtkIconTheme *theme = gtk_icon_theme_get_for_display(gtk_widget_get_display(GTK_WIDGET(self)));
    gboolean own = target->image && gtk_icon_theme_has_icon(theme, target->image);
    gtk_image_set_from_icon_name(self->avatar, own ? target->image : kind_icon(target->kind));
    if (g_strcmp0(target->kind, "app") == 0) gtk_image_set_pixel_size(self->avatar, 32);
    gtk_label_set_text(self->subtitle, target->subtitle ? target->subtitle : "");
    gtk_widget_set_visible(GTK_WIDGET(self->subtitle), target->subtitle != NULL);
    /* What a sighted person gathers from the row, said in words. */
    g_autofree char *label = as_target_describe(activity->title, target);
    gtk_widget_set_tooltip_text(GTK_WIDGET(self), label);
    gtk_accessible_update_property(GTK_ACCESSIBLE(self), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
    return GTK_WIDGET(self);
}
