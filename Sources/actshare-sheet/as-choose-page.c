#include "as-choose-page.h"

#include "as-activity-tile.h"
#include "as-target-tile.h"

#include <glib/gi18n.h>
#include <sys/stat.h>

/* A thumbnail is made only of an image file up to this size and this many pixels: a
 * shared file is outside input, and a decompression bomb must not stall the window. */
#define THUMBNAIL_FILE_LIMIT (64u << 20)
#define THUMBNAIL_PIXEL_LIMIT (64.0 * 1024 * 1024)
#define THUMBNAIL_SIZE 96

struct _AsChoosePage {
    GtkBox parent_instance;
    GtkImage *icon;
    GtkPicture *thumbnail;
    GtkLabel *heading, *detail, *names;
    GtkWidget *devices_title, *devices_scroller, *apps_title, *apps_scroller;
    GtkBox *devices, *apps;
    GtkSearchEntry *search;
    GtkStack *results;
    GtkScrolledWindow *grid_scroller;
    GtkFlowBox *grid;
    GtkWidget *none;
    GtkLabel *no_match;
    char *thumbnail_path;
    char *needle; /* the search, casefolded */
};

G_DEFINE_TYPE(AsChoosePage, as_choose_page, GTK_TYPE_BOX)

enum { SIGNAL_ACTIVITY_CHOSEN, SIGNAL_TARGET_CHOSEN, N_SIGNALS };
static guint signals[N_SIGNALS];

static void as_choose_page_finalize(GObject *object) {
    AsChoosePage *self = AS_CHOOSE_PAGE(object);
    g_free(self->thumbnail_path);
    g_free(self->needle);
    G_OBJECT_CLASS(as_choose_page_parent_class)->finalize(object);
}

static void as_choose_page_dispose(GObject *object) {
    gtk_widget_dispose_template(GTK_WIDGET(object), AS_TYPE_CHOOSE_PAGE);
    G_OBJECT_CLASS(as_choose_page_parent_class)->dispose(object);
}

/* ---- Choosing ----------------------------------------------------------------------- */

static void on_child_activated(GtkFlowBox *grid, GtkFlowBoxChild *child, AsChoosePage *self) {
    (void)grid;
    g_signal_emit(self, signals[SIGNAL_ACTIVITY_CHOSEN], 0, as_activity_tile_get_activity_type(AS_ACTIVITY_TILE(child)));
}

static void on_target_chosen(AsTargetTile *tile, const char *type, const char *target, AsChoosePage *self) {
    (void)tile;
    g_signal_emit(self, signals[SIGNAL_TARGET_CHOSEN], 0, type, target);
}

static gboolean filter(GtkFlowBoxChild *child, gpointer data) {
    return as_activity_tile_matches(AS_ACTIVITY_TILE(child), ((AsChoosePage *)data)->needle);
}

/* The first tile the search matches (matched here, not by what is shown: the field tells
 * of a change only after a pause in the typing). */
static GtkFlowBoxChild *first_match(AsChoosePage *self) {
    for (GtkWidget *child = gtk_widget_get_first_child(GTK_WIDGET(self->grid)); child; child = gtk_widget_get_next_sibling(child)) {
        if (AS_IS_ACTIVITY_TILE(child) && as_activity_tile_matches(AS_ACTIVITY_TILE(child), self->needle)) {
            return GTK_FLOW_BOX_CHILD(child);
        }
    }
    return NULL;
}

static void update_needle(AsChoosePage *self) {
    g_free(self->needle);
    const char *text = gtk_editable_get_text(GTK_EDITABLE(self->search));
    self->needle = text && *text ? g_utf8_casefold(text, -1) : NULL;
}

static void on_search_changed(GtkSearchEntry *entry, AsChoosePage *self) {
    (void)entry;
    update_needle(self);
    gtk_flow_box_invalidate_filter(self->grid);
    GtkFlowBoxChild *match = first_match(self);
    if (match) {
        /* What Enter will choose, shown. */
        gtk_flow_box_select_child(self->grid, match);
    } else {
        g_autofree char *text = g_strdup_printf(_("No activity matches “%s”"), gtk_editable_get_text(GTK_EDITABLE(self->search)));
        gtk_label_set_text(self->no_match, text);
    }
    /* The other page hidden, not only covered: a screen reader reads what is shown. */
    gtk_widget_set_visible(match ? GTK_WIDGET(self->grid_scroller) : self->none, TRUE);
    gtk_stack_set_visible_child(self->results, match ? GTK_WIDGET(self->grid_scroller) : self->none);
    gtk_widget_set_visible(match ? self->none : GTK_WIDGET(self->grid_scroller), FALSE);
}

gboolean as_choose_page_choose_current(AsChoosePage *self) {
    update_needle(self);
    GtkFlowBoxChild *child = NULL;
    if (self->needle) {
        child = first_match(self);
    } else {
        GList *selected = gtk_flow_box_get_selected_children(self->grid);
        child = selected ? selected->data : NULL;
        g_list_free(selected);
        GtkWidget *focus = gtk_root_get_focus(gtk_widget_get_root(GTK_WIDGET(self)));
        while (focus && !AS_IS_ACTIVITY_TILE(focus)) focus = gtk_widget_get_parent(focus);
        if (focus) child = GTK_FLOW_BOX_CHILD(focus);
    }
    if (!child) return FALSE;
    g_signal_emit(self, signals[SIGNAL_ACTIVITY_CHOSEN], 0, as_activity_tile_get_activity_type(AS_ACTIVITY_TILE(child)));
    return TRUE;
}

static void on_search_activate(GtkSearchEntry *entry, AsChoosePage *self) {
    (void)entry;
    as_choose_page_choose_current(self);
}

gboolean as_choose_page_clear_search(AsChoosePage *self) {
    const char *text = gtk_editable_get_text(GTK_EDITABLE(self->search));
    if (!text || !*text) return FALSE;
    gtk_editable_set_text(GTK_EDITABLE(self->search), "");
    on_search_changed(self->search, self);
    as_choose_page_focus_first(self);
    return TRUE;
}

gboolean as_choose_page_type_space(AsChoosePage *self) {
    const char *text = gtk_editable_get_text(GTK_EDITABLE(self->search));
    if (!text || !*text || gtk_widget_has_focus(GTK_WIDGET(self->search))) return FALSE;
    int position = (int)g_utf8_strlen(text, -1);
    gtk_editable_insert_text(GTK_EDITABLE(self->search), " ", 1, &position);
    gtk_editable_set_position(GTK_EDITABLE(self->search), position);
    return TRUE;
}

void as_choose_page_focus_first(AsChoosePage *self) {
    GtkFlowBoxChild *first = first_match(self);
    if (!first) return;
    gtk_flow_box_select_child(self->grid, first);
    gtk_widget_grab_focus(GTK_WIDGET(first));
    /* The grid moves its cursor from where its cursor is, and has none until a key moved
     * it: put it on the first tile, so that arrows work at once (not only after Tab). */
    gboolean moved = FALSE;
    g_signal_emit_by_name(self->grid, "move-cursor", GTK_MOVEMENT_BUFFER_ENDS, -1, FALSE, FALSE, &moved);
}

void as_choose_page_capture_keys(AsChoosePage *self, GtkWidget *window) {
    gtk_search_entry_set_key_capture_widget(self->search, window);
}

void as_choose_page_set_max_grid_height(AsChoosePage *self, int height) {
    /* Whole rows: a row cut through its icons reads as a broken window, while a scroll bar
     * beside whole rows says there are more. */
    GtkWidget *tile = gtk_widget_get_first_child(GTK_WIDGET(self->grid));
    int row = 0;
    if (tile) gtk_widget_measure(tile, GTK_ORIENTATION_VERTICAL, -1, NULL, &row, NULL, NULL);
    row += (int)gtk_flow_box_get_row_spacing(self->grid);
    int rows = row > 0 ? MAX(height / row, 1) : 0;
    gtk_scrolled_window_set_max_content_height(self->grid_scroller, rows ? rows * row : MAX(height, 120));
}

/* ---- What is shown ------------------------------------------------------------------ */

/* The shared image, small, in place of the header's icon; made after the window is up,
 * and only of a regular file of bounded size and pixel count. */
static gboolean load_thumbnail(gpointer data) {
    AsChoosePage *self = data;
    struct stat status;
    int width = 0, height = 0;
    if (stat(self->thumbnail_path, &status) != 0 || !S_ISREG(status.st_mode)
        || (unsigned long long)status.st_size > THUMBNAIL_FILE_LIMIT
        || !gdk_pixbuf_get_file_info(self->thumbnail_path, &width, &height) || width <= 0 || height <= 0
        || (double)width * (double)height > THUMBNAIL_PIXEL_LIMIT) {
        g_object_unref(self);
        return G_SOURCE_REMOVE;
    }
    /* Made smaller, never larger. */
    GdkPixbuf *pixbuf = gdk_pixbuf_new_from_file_at_scale(self->thumbnail_path, MIN(width, THUMBNAIL_SIZE),
                                                          MIN(height, THUMBNAIL_SIZE), TRUE, NULL);
    if (pixbuf) {
        GdkTexture *texture = gdk_texture_new_for_pixbuf(pixbuf);
        g_object_unref(pixbuf);
        gtk_picture_set_paintable(self->thumbnail, GDK_PAINTABLE(texture));
        g_object_unref(texture);
        gtk_widget_set_visible(GTK_WIDGET(self->icon), FALSE);
        gtk_widget_set_visible(GTK_WIDGET(self->thumbnail), TRUE);
    }
    g_object_unref(self);
    return G_SOURCE_REMOVE;
}

/* "Plain text document, 11 bytes": the type as the desktop names it, and the size. */
static char *describe(const char *content_type, const char *detail) {
    g_autofree char *type = content_type ? g_content_type_from_mime_type(content_type) : NULL;
    g_autofree char *description = type ? g_content_type_get_description(type) : NULL;
    if (description && detail && *detail) return g_strdup_printf(C_("type, size", "%s, %s"), description, detail);
    return g_strdup(description ? description : detail ? detail : "");
}

/* "notes.txt, plan.pdf, photo.jpg and 27 more". */
static char *list_names(const AsRequest *request) {
    if (request->names->len == 0) return g_strdup("");
    g_autoptr(GString) names = g_string_new(NULL);
    for (guint i = 0; i < request->names->len; i++) {
        if (i) g_string_append(names, C_("between names", ", "));
        g_string_append(names, g_ptr_array_index(request->names, i));
    }
    guint rest = request->item_count > request->names->len ? request->item_count - request->names->len : 0;
    if (!rest) return g_strdup(names->str);
    return g_strdup_printf(ngettext("%s and %u more", "%s and %u more", rest), names->str, rest);
}

/* The tile in `row` for target `id` of `provider`, or NULL. */
static AsTargetTile *tile_for(GtkBox *row, const char *provider, const char *id) {
    for (GtkWidget *child = gtk_widget_get_first_child(GTK_WIDGET(row)); child; child = gtk_widget_get_next_sibling(child)) {
        if (AS_IS_TARGET_TILE(child) && as_target_tile_is(AS_TARGET_TILE(child), provider, id)) return AS_TARGET_TILE(child);
    }
    return NULL;
}

/* The rows of targets, in the activities' order and each provider's: devices and people
 * in one, applications in the other. A target a provider's second activity offers too
 * gets a smaller button on the first's tile. */
static void show_targets(AsChoosePage *self, GPtrArray *activities) {
    guint devices = 0, apps = 0;
    for (guint i = 0; i < activities->len; i++) {
        const AsActivity *activity = g_ptr_array_index(activities, i);
        for (guint j = 0; j < activity->targets->len; j++) {
            const AsTarget *target = g_ptr_array_index(activity->targets, j);
            gboolean app = g_strcmp0(target->kind, "app") == 0;
            if (!app && g_strcmp0(target->kind, "device") != 0 && g_strcmp0(target->kind, "person") != 0) continue;
            GtkBox *row = app ? self->apps : self->devices;
            AsTargetTile *tile = activity->provider ? tile_for(row, activity->provider, target->id) : NULL;
            if (tile) {
                as_target_tile_add_activity(tile, activity, target);
                continue;
            }
            GtkWidget *new_tile = as_target_tile_new(activity, target);
            g_signal_connect(new_tile, "chosen", G_CALLBACK(on_target_chosen), self);
            gtk_box_append(row, new_tile);
            if (app) apps++;
            else devices++;
        }
    }
    gtk_widget_set_visible(self->devices_title, devices > 0);
    gtk_widget_set_visible(self->devices_scroller, devices > 0);
    gtk_widget_set_visible(self->apps_title, apps > 0);
    gtk_widget_set_visible(self->apps_scroller, apps > 0);
}

void as_choose_page_show_request(AsChoosePage *self, const AsRequest *request) {
    if (request->item_count > 1 || !request->heading) {
        g_autofree char *heading = g_strdup_printf(ngettext("%u item", "%u items", request->item_count), request->item_count);
        gtk_label_set_text(self->heading, heading);
        g_autofree char *size = g_format_size(request->total_size);
        g_autofree char *total = request->total_size ? g_strdup_printf(_("%s in all"), size) : g_strdup("");
        gtk_label_set_text(self->detail, total);
        g_autofree char *names = list_names(request);
        gtk_label_set_text(self->names, names);
        gtk_widget_set_visible(GTK_WIDGET(self->names), *names != '\0');
        gtk_image_set_from_icon_name(self->icon, "edit-copy");
    } else {
        gtk_label_set_text(self->heading, request->heading);
        gtk_widget_set_tooltip_text(GTK_WIDGET(self->heading), request->heading);
        g_autofree char *size = request->has_size ? g_format_size(request->total_size) : NULL;
        g_autofree char *detail = describe(request->content_type, size);
        gtk_label_set_text(self->detail, detail);
        if (request->content_type) {
            g_autofree char *type = g_content_type_from_mime_type(request->content_type);
            GIcon *icon = g_content_type_get_icon(type ? type : request->content_type);
            gtk_image_set_from_gicon(self->icon, icon);
            g_object_unref(icon);
        }
    }
    gtk_widget_set_visible(GTK_WIDGET(self->detail), *gtk_label_get_text(self->detail) != '\0');
    for (guint i = 0; i < request->activities->len; i++) {
        gtk_flow_box_append(self->grid, as_activity_tile_new(g_ptr_array_index(request->activities, i)));
    }
    if (request->thumbnail) {
        self->thumbnail_path = g_strdup(request->thumbnail);
        g_idle_add(load_thumbnail, g_object_ref(self));
    }
    show_targets(self, request->activities);
}

static void as_choose_page_class_init(AsChoosePageClass *klass) {
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->finalize = as_choose_page_finalize;
    G_OBJECT_CLASS(klass)->dispose = as_choose_page_dispose;
    signals[SIGNAL_ACTIVITY_CHOSEN] = g_signal_new("activity-chosen", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                                   NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
    signals[SIGNAL_TARGET_CHOSEN] = g_signal_new("target-chosen", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                                 NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
    gtk_widget_class_set_template_from_resource(widget_class, "/org/actshare/Sheet/as-choose-page.ui");
    gtk_widget_class_bind_template_child(widget_class, AsChoosePage, icon);
    gtk_widget_class_bind_template_child(widget_class, AsChoosePage, thumbnail);
    gtk_widget_class_bind_template_child(widget_class, AsChoosePage, heading);
    gtk_widget_class_bind_template_child(widget_class, AsChoosePage, detail);
    gtk_widget_class_bind_template_child(widget_class, AsChoosePage, names);
    gtk_widget_class_bind_template_child(widget_class, AsChoosePage, devices_title);
    gtk_widget_class_bind_template_child(widget_class, AsChoosePage, devices_scroller);
    gtk_widget_class_bind_template_child(widget_class, AsChoosePage, devices);
    gtk_widget_class_bind_template_child(widget_class, AsChoosePage, apps_title);
    gtk_widget_class_bind_template_child(widget_class, AsChoosePage, apps_scroller);
    gtk_widget_class_bind_template_child(widget_class, AsChoosePage, apps);
    gtk_widget_class_bind_template_child(widget_class, AsChoosePage, search);
    gtk_widget_class_bind_template_child(widget_class, AsChoosePage, results);
    gtk_widget_class_bind_template_child(widget_class, AsChoosePage, grid_scroller);
    gtk_widget_class_bind_template_child(widget_class, AsChoosePage, grid);
    gtk_widget_class_bind_template_child(widget_class, AsChoosePage, none);
    gtk_widget_class_bind_template_child(widget_class, AsChoosePage, no_match);
    gtk_widget_class_bind_template_callback(widget_class, on_child_activated);
    gtk_widget_class_bind_template_callback(widget_class, on_search_changed);
    gtk_widget_class_bind_template_callback(widget_class, on_search_activate);
}

/* Tab leaves the grid as GTK's focus chain does elsewhere: GtkFlowBox takes Shift+Tab to
 * move among its own tiles, so from a tile it goes back to the search field here. */
static gboolean on_grid_key(GtkEventControllerKey *controller, guint keyval, guint keycode, GdkModifierType state, AsChoosePage *self) {
    (void)controller;
    (void)keycode;
    if (keyval == GDK_KEY_ISO_Left_Tab || (keyval == GDK_KEY_Tab && (state & GDK_SHIFT_MASK))) {
        return gtk_widget_grab_focus(GTK_WIDGET(self->search));
    }
    return FALSE;
}

/* …and Tab from the search field reaches the first tile the search matches. */
static gboolean on_search_key(GtkEventControllerKey *controller, guint keyval, guint keycode, GdkModifierType state, AsChoosePage *self) {
    (void)controller;
    (void)keycode;
    if (keyval != GDK_KEY_Tab || (state & GDK_SHIFT_MASK) || !first_match(self)) return FALSE;
    as_choose_page_focus_first(self);
    return TRUE;
}

static void as_choose_page_init(AsChoosePage *self) {
    gtk_widget_init_template(GTK_WIDGET(self));
    gtk_flow_box_set_filter_func(self->grid, filter, self, NULL);
    GtkEventController *grid_keys = gtk_event_controller_key_new();
    gtk_event_controller_set_propagation_phase(grid_keys, GTK_PHASE_CAPTURE);
    g_signal_connect(grid_keys, "key-pressed", G_CALLBACK(on_grid_key), self);
    gtk_widget_add_controller(GTK_WIDGET(self->grid), grid_keys);
    GtkEventController *search_keys = gtk_event_controller_key_new();
    gtk_event_controller_set_propagation_phase(search_keys, GTK_PHASE_CAPTURE);
    g_signal_connect(search_keys, "key-pressed", G_CALLBACK(on_search_key), self);
    gtk_widget_add_controller(GTK_WIDGET(self->search), search_keys);
}
