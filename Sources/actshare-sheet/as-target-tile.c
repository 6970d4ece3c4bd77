#include "as-target-tile.h"

#include "as-target-button.h"

/* One activity the tile's target is offered by. */
typedef struct {
    char *type, *title, *image;
    guint position;
} Entry;

struct _AsTargetTile {
    GtkBox parent_instance;
    char *provider, *id;
    AsTarget target;  /* the first offer's words, shown */
    GPtrArray *entries; /* (Entry *) by position */
};

enum { SIGNAL_CHOSEN, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_TYPE(AsTargetTile, as_target_tile, GTK_TYPE_BOX)

static void entry_free(gpointer data) {
    Entry *entry = data;
    g_free(entry->type);
    g_free(entry->title);
    g_free(entry->image);
    g_free(entry);
}

static void as_target_tile_finalize(GObject *object) {
    AsTargetTile *self = AS_TARGET_TILE(object);
    g_free(self->provider);
    g_free(self->id);
    g_free(self->target.id);
    g_free(self->target.title);
    g_free(self->target.subtitle);
    g_free(self->target.image);
    g_free(self->target.kind);
    g_ptr_array_unref(self->entries);
    G_OBJECT_CLASS(as_target_tile_parent_class)->finalize(object);
}

static void as_target_tile_dispose(GObject *object) {
    gtk_widget_dispose_template(GTK_WIDGET(object), AS_TYPE_TARGET_TILE);
    G_OBJECT_CLASS(as_target_tile_parent_class)->dispose(object);
}

static void as_target_tile_class_init(AsTargetTileClass *klass) {
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->finalize = as_target_tile_finalize;
    G_OBJECT_CLASS(klass)->dispose = as_target_tile_dispose;
    signals[SIGNAL_CHOSEN] = g_signal_new("chosen", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                          G_TYPE_STRING, G_TYPE_STRING);
    gtk_widget_class_set_template_from_resource(widget_class, "/org/actshare/Sheet/as-target-tile.ui");
}

static void as_target_tile_init(AsTargetTile *self) {
    gtk_widget_init_template(GTK_WIDGET(self));
    self->entries = g_ptr_array_new_with_free_func(entry_free);
}

static void on_clicked(GtkButton *button, AsTargetTile *self) {
    g_signal_emit(self, signals[SIGNAL_CHOSEN], 0, g_object_get_data(G_OBJECT(button), "activity"), self->id);
}

/* A smaller button for another activity to the same target: its icon and title. */
static GtkWidget *second_button(const Entry *entry, const AsTarget *target) {
    GtkWidget *button = gtk_button_new(), *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4), *label = gtk_label_new(entry->title);
    if (entry->image && entry->image[0] != '/') {
        GtkWidget *icon = g_object_new(GTK_TYPE_IMAGE, "icon-name", entry->image, "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION, NULL);
        gtk_box_append(GTK_BOX(box), icon);
    }
    gtk_box_append(GTK_BOX(box), label);
    gtk_button_set_child(GTK_BUTTON(button), box);
    gtk_widget_set_halign(button, GTK_ALIGN_CENTER);
    gtk_widget_add_css_class(button, "flat");
    gtk_widget_add_css_class(button, "device-copy");
    g_autofree char *described = as_target_describe(entry->title, target);
    gtk_widget_set_tooltip_text(button, described);
    gtk_accessible_update_property(GTK_ACCESSIBLE(button), GTK_ACCESSIBLE_PROPERTY_LABEL, described, -1);
    return button;
}

/* The buttons anew: the first activity's large one, then one small one each. */
static void rebuild(AsTargetTile *self) {
    GtkWidget *child;
    while ((child = gtk_widget_get_first_child(GTK_WIDGET(self)))) gtk_box_remove(GTK_BOX(self), child);
    for (guint i = 0; i < self->entries->len; i++) {
        const Entry *entry = g_ptr_array_index(self->entries, i);
        AsActivity activity = {.type = entry->type, .title = entry->title, .image = entry->image};
        GtkWidget *button = i == 0 ? as_target_button_new(&activity, &self->target) : second_button(entry, &self->target);
        g_object_set_data_full(G_OBJECT(button), "activity", g_strdup(entry->type), g_free);
        g_signal_connect(button, "clicked", G_CALLBACK(on_clicked), self);
        gtk_box_append(GTK_BOX(self), button);
    }
}

GtkWidget *as_target_tile_new(const AsActivity *activity, const AsTarget *target) {
    AsTargetTile *self = g_object_new(AS_TYPE_TARGET_TILE, NULL);
    self->provider = g_strdup(activity->provider);
    self->id = g_strdup(target->id);
    self->target = (AsTarget){g_strdup(target->id), g_strdup(target->title), g_strdup(target->subtitle), g_strdup(target->image),
                              g_strdup(target->kind)};
    as_target_tile_add_activity(self, activity, target);
    return GTK_WIDGET(self);
}

void as_target_tile_add_activity(AsTargetTile *self, const AsActivity *activity, const AsTarget *target) {
    (void)target;
    Entry *entry = g_new0(Entry, 1);
    entry->type = g_strdup(activity->type);
    entry->title = g_strdup(activity->title);
    entry->image = g_strdup(activity->image);
    entry->position = activity->position;
    guint at = 0;
    while (at < self->entries->len && ((Entry *)g_ptr_array_index(self->entries, at))->position <= entry->position) at++;
    g_ptr_array_insert(self->entries, (gint)at, entry);
    rebuild(self);
}

gboolean as_target_tile_is(AsTargetTile *self, const char *provider, const char *id) {
    return g_strcmp0(self->provider, provider) == 0 && g_strcmp0(self->id, id) == 0;
}
