#include "as-activity-tile.h"

#include "as-icon.h"

#include <string.h>

struct _AsActivityTile {
    GtkFlowBoxChild parent_instance;
    GtkImage *icon;
    GtkLabel *title;
    char *type;
    char *folded_title;
};

G_DEFINE_TYPE(AsActivityTile, as_activity_tile, GTK_TYPE_FLOW_BOX_CHILD)

static void as_activity_tile_finalize(GObject *object) {
    AsActivityTile *self = AS_ACTIVITY_TILE(object);
    g_free(self->type);
    g_free(self->folded_title);
    G_OBJECT_CLASS(as_activity_tile_parent_class)->finalize(object);
}

static void as_activity_tile_dispose(GObject *object) {
    gtk_widget_dispose_template(GTK_WIDGET(object), AS_TYPE_ACTIVITY_TILE);
    G_OBJECT_CLASS(as_activity_tile_parent_class)->dispose(object);
}

static void as_activity_tile_class_init(AsActivityTileClass *klass) {
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->finalize = as_activity_tile_finalize;
    G_OBJECT_CLASS(klass)->dispose = as_activity_tile_dispose;
    gtk_widget_class_set_template_from_resource(widget_class, "/org/actshare/Sheet/as-activity-tile.ui");
    gtk_widget_class_bind_template_child(widget_class, AsActivityTile, icon);
    gtk_widget_class_bind_template_child(widget_class, AsActivityTile, title);
}

static void as_activity_tile_init(AsActivityTile *self) {
    gtk_widget_init_template(GTK_WIDGET(self));
}

GtkWidget *as_activity_tile_new(const AsActivity *activity) {
    AsActivityTile *self = g_object_new(AS_TYPE_ACTIVITY_TILE, NULL);
    self->type = g_strdup(activity->type);
    self->folded_title = g_utf8_casefold(activity->title, -1);
    as_icon_set(self->icon, activity->image, "system-run");
    gtk_label_set_text(self->title, activity->title);
    gtk_widget_set_tooltip_text(GTK_WIDGET(self), activity->title);
    /* A screen reader reads the whole title, not the cut one. */
    gtk_accessible_update_property(GTK_ACCESSIBLE(self), GTK_ACCESSIBLE_PROPERTY_LABEL, activity->title, -1);
    return GTK_WIDGET(self);
}

const char *as_activity_tile_get_activity_type(AsActivityTile *self) {
    return self->type;
}

gboolean as_activity_tile_matches(AsActivityTile *self, const char *needle) {
    return !needle || !*needle || strstr(self->folded_title, needle) != NULL;
}
