/*
 * actshare-sheet: the share sheet's window (GTK 4), shown by `actshare` to pick an
 * activity when it runs on a desktop without a terminal (`--picker sheet`).
 *
 * Written in C: GTK 4 is a C library, and a small C program starts faster and needs no
 * binding layer (docs/DESKTOP.md). It decides nothing: actshare gives it, as JSON on
 * standard input, what is shared and the activities in offer order:
 *
 *   {"heading": "notes.txt", "detail": "11 bytes", "content-type": "text/plain",
 *    "activities": [{"type": "org.actshare.mail", "title": "Mail", "image": "mail-send"}]}
 *
 * (`content-type`, for one item, gives the header its icon and a description; `image`
 * is an icon name or an image file).
 *
 * and it prints the type chosen and a newline, exit status 0; closing the window or Esc
 * prints nothing, exit status 1. Bad input: a message on standard error, exit status 2.
 *
 * The window: what is shared (icon, name, detail), a search field that filters as one
 * types (typing anywhere goes to it), and the activities as a grid of icons with titles
 * wrapped, never cut. Arrows move, Enter performs the focused activity (in the search
 * field: the first one shown), Esc cancels.
 */
#include <gtk/gtk.h>
#include <json.h>

#include <stdio.h>
#include <string.h>

/* The most JSON read from standard input: far more than any list of activities. */
#define SHEET_INPUT_LIMIT (4u << 20)

typedef struct sheet {
    GtkWidget *window, *search, *grid;
    char *chosen; /* a copy: the tiles' data goes with the window */
    int answered;
} sheet;

static void finish(sheet *s, const char *type) {
    if (s->answered) return;
    s->answered = 1;
    s->chosen = g_strdup(type);
    gtk_window_destroy(GTK_WINDOW(s->window));
}

static gboolean on_close_request(GtkWindow *window, gpointer data) {
    (void)window;
    finish(data, NULL);
    return TRUE;
}

static void on_child_activated(GtkFlowBox *grid, GtkFlowBoxChild *child, gpointer data) {
    (void)grid;
    finish(data, g_object_get_data(G_OBJECT(child), "activity-type"));
}

static gboolean filter(GtkFlowBoxChild *child, gpointer data);

/* Enter in the search field: the first activity the search matches (matched here, not
 * by what is shown: the field tells of a change only after a pause in the typing). */
static void on_search_activate(GtkSearchEntry *entry, gpointer data) {
    (void)entry;
    sheet *s = data;
    for (GtkWidget *child = gtk_widget_get_first_child(s->grid); child; child = gtk_widget_get_next_sibling(child)) {
        if (GTK_IS_FLOW_BOX_CHILD(child) && filter(GTK_FLOW_BOX_CHILD(child), s)) {
            finish(s, g_object_get_data(G_OBJECT(child), "activity-type"));
            return;
        }
    }
}

static void on_search_changed(GtkSearchEntry *entry, gpointer data) {
    (void)entry;
    gtk_flow_box_invalidate_filter(GTK_FLOW_BOX(((sheet *)data)->grid));
}

static void on_stop_search(GtkSearchEntry *entry, gpointer data) {
    (void)entry;
    finish(data, NULL);
}

static gboolean filter(GtkFlowBoxChild *child, gpointer data) {
    const char *text = gtk_editable_get_text(GTK_EDITABLE(((sheet *)data)->search));
    if (!text || !*text) return TRUE;
    char *needle = g_utf8_casefold(text, -1);
    char *title = g_utf8_casefold(g_object_get_data(G_OBJECT(child), "activity-title"), -1);
    gboolean found = strstr(title, needle) != NULL;
    g_free(needle);
    g_free(title);
    return found;
}

/* Enter: with something searched, the first activity shown; else the focused one. Taken
 * before the focused widget sees it, as typing may search while a tile keeps the focus. */
static gboolean on_enter(GtkWidget *widget, GVariant *arguments, gpointer data) {
    (void)arguments;
    sheet *s = data;
    const char *text = gtk_editable_get_text(GTK_EDITABLE(s->search));
    if (text && *text) {
        on_search_activate(GTK_SEARCH_ENTRY(s->search), s);
        return TRUE;
    }
    GtkWidget *focus = gtk_root_get_focus(GTK_ROOT(widget));
    while (focus && !GTK_IS_FLOW_BOX_CHILD(focus)) focus = gtk_widget_get_parent(focus);
    if (!focus) return FALSE;
    finish(s, g_object_get_data(G_OBJECT(focus), "activity-type"));
    return TRUE;
}

static gboolean on_escape(GtkWidget *widget, GVariant *arguments, gpointer data) {
    (void)widget;
    (void)arguments;
    finish(data, NULL);
    return TRUE;
}

static GtkWidget *icon(const char *image, int size) {
    GtkWidget *widget = image && image[0] == '/' ? gtk_image_new_from_file(image)
                                                 : gtk_image_new_from_icon_name(image && *image ? image : "system-run");
    gtk_image_set_pixel_size(GTK_IMAGE(widget), size);
    return widget;
}

static const char *member(json_object *object, const char *key) {
    json_object *value;
    return json_object_object_get_ex(object, key, &value) && json_object_is_type(value, json_type_string)
        ? json_object_get_string(value) : NULL;
}

static GtkWidget *activity_tile(json_object *activity) {
    const char *type = member(activity, "type"), *title = member(activity, "title");
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    gtk_widget_set_margin_top(box, 8);
    gtk_widget_set_margin_bottom(box, 8);
    gtk_box_append(GTK_BOX(box), icon(member(activity, "image"), 48));
    GtkWidget *label = gtk_label_new(title);
    /* Wrapped at word boundaries over at most three lines, never cut in the middle. */
    gtk_label_set_wrap(GTK_LABEL(label), TRUE);
    gtk_label_set_wrap_mode(GTK_LABEL(label), PANGO_WRAP_WORD_CHAR);
    gtk_label_set_justify(GTK_LABEL(label), GTK_JUSTIFY_CENTER);
    gtk_label_set_max_width_chars(GTK_LABEL(label), 12);
    gtk_label_set_width_chars(GTK_LABEL(label), 10);
    gtk_box_append(GTK_BOX(box), label);
    GtkWidget *child = gtk_flow_box_child_new();
    gtk_flow_box_child_set_child(GTK_FLOW_BOX_CHILD(child), box);
    gtk_widget_set_tooltip_text(child, title);
    g_object_set_data_full(G_OBJECT(child), "activity-type", g_strdup(type), g_free);
    g_object_set_data_full(G_OBJECT(child), "activity-title", g_strdup(title), g_free);
    return child;
}

/* The header's icon and description: the content type's, for one item. */
static GtkWidget *header_icon(const char *content_type) {
    if (!content_type) return icon("document-send", 48);
    char *type = g_content_type_from_mime_type(content_type);
    GIcon *gicon = g_content_type_get_icon(type ? type : content_type);
    g_free(type);
    GtkWidget *widget = gtk_image_new_from_gicon(gicon);
    g_object_unref(gicon);
    gtk_image_set_pixel_size(GTK_IMAGE(widget), 48);
    return widget;
}

static char *describe(const char *content_type, const char *detail) {
    char *type = content_type ? g_content_type_from_mime_type(content_type) : NULL;
    char *description = type ? g_content_type_get_description(type) : NULL;
    g_free(type);
    char *text = description && detail && *detail ? g_strdup_printf("%s, %s", description, detail)
                 : g_strdup(description ? description : detail ? detail : "");
    g_free(description);
    return text;
}

static void build(sheet *s, json_object *root) {
    s->window = gtk_window_new();
    gtk_window_set_title(GTK_WINDOW(s->window), "Share");
    gtk_window_set_default_size(GTK_WINDOW(s->window), 480, 440);

    GtkWidget *page = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);
    gtk_widget_set_margin_start(page, 18);
    gtk_widget_set_margin_end(page, 18);
    gtk_widget_set_margin_top(page, 18);
    gtk_widget_set_margin_bottom(page, 18);

    GtkWidget *header = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
    gtk_box_append(GTK_BOX(header), header_icon(member(root, "content-type")));
    GtkWidget *names = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
    gtk_widget_set_valign(names, GTK_ALIGN_CENTER);
    GtkWidget *heading = gtk_label_new(member(root, "heading"));
    gtk_widget_add_css_class(heading, "title-3");
    gtk_label_set_wrap(GTK_LABEL(heading), TRUE);
    gtk_label_set_wrap_mode(GTK_LABEL(heading), PANGO_WRAP_WORD_CHAR);
    gtk_label_set_xalign(GTK_LABEL(heading), 0);
    gtk_box_append(GTK_BOX(names), heading);
    char *detail = describe(member(root, "content-type"), member(root, "detail"));
    if (*detail) {
        GtkWidget *label = gtk_label_new(detail);
        gtk_widget_add_css_class(label, "dim-label");
        gtk_label_set_xalign(GTK_LABEL(label), 0);
        gtk_label_set_wrap(GTK_LABEL(label), TRUE);
        gtk_box_append(GTK_BOX(names), label);
    }
    g_free(detail);
    gtk_box_append(GTK_BOX(header), names);
    gtk_box_append(GTK_BOX(page), header);

    s->search = gtk_search_entry_new();
    g_object_set(s->search, "placeholder-text", "Search activities", NULL);
    gtk_box_append(GTK_BOX(page), s->search);

    s->grid = gtk_flow_box_new();
    gtk_flow_box_set_selection_mode(GTK_FLOW_BOX(s->grid), GTK_SELECTION_SINGLE);
    gtk_flow_box_set_activate_on_single_click(GTK_FLOW_BOX(s->grid), TRUE);
    gtk_flow_box_set_homogeneous(GTK_FLOW_BOX(s->grid), TRUE);
    gtk_flow_box_set_max_children_per_line(GTK_FLOW_BOX(s->grid), 6);
    /* Rows packed at the top, not spread over the window's height. */
    gtk_widget_set_valign(s->grid, GTK_ALIGN_START);
    gtk_flow_box_set_row_spacing(GTK_FLOW_BOX(s->grid), 4);
    gtk_flow_box_set_filter_func(GTK_FLOW_BOX(s->grid), filter, s, NULL);
    json_object *activities;
    if (json_object_object_get_ex(root, "activities", &activities)) {
        for (size_t i = 0; i < json_object_array_length(activities); i++) {
            gtk_flow_box_append(GTK_FLOW_BOX(s->grid), activity_tile(json_object_array_get_idx(activities, i)));
        }
    }
    GtkWidget *scrolled = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scrolled), s->grid);
    gtk_widget_set_vexpand(scrolled, TRUE);
    gtk_box_append(GTK_BOX(page), scrolled);
    gtk_window_set_child(GTK_WINDOW(s->window), page);

    g_signal_connect(s->grid, "child-activated", G_CALLBACK(on_child_activated), s);
    g_signal_connect(s->search, "search-changed", G_CALLBACK(on_search_changed), s);
    g_signal_connect(s->search, "activate", G_CALLBACK(on_search_activate), s);
    g_signal_connect(s->search, "stop-search", G_CALLBACK(on_stop_search), s);
    g_signal_connect(s->window, "close-request", G_CALLBACK(on_close_request), s);
    /* Typing anywhere searches; Esc anywhere cancels. */
    gtk_search_entry_set_key_capture_widget(GTK_SEARCH_ENTRY(s->search), s->window);
    GtkEventController *keys = gtk_shortcut_controller_new();
    gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE);
    gtk_shortcut_controller_add_shortcut(GTK_SHORTCUT_CONTROLLER(keys),
        gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"), gtk_callback_action_new(on_escape, s, NULL)));
    gtk_shortcut_controller_add_shortcut(GTK_SHORTCUT_CONTROLLER(keys),
        gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Return|KP_Enter"), gtk_callback_action_new(on_enter, s, NULL)));
    gtk_widget_add_controller(s->window, keys);

    gtk_window_present(GTK_WINDOW(s->window));
    GtkFlowBoxChild *first = gtk_flow_box_get_child_at_index(GTK_FLOW_BOX(s->grid), 0);
    if (first) gtk_widget_grab_focus(GTK_WIDGET(first));
}

/* Standard input, whole, at most SHEET_INPUT_LIMIT bytes. */
static char *read_input(void) {
    GString *text = g_string_new(NULL);
    char chunk[65536];
    size_t count;
    while ((count = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
        if (text->len + count > SHEET_INPUT_LIMIT) {
            g_string_free(text, TRUE);
            return NULL;
        }
        g_string_append_len(text, chunk, (gssize)count);
    }
    return g_string_free(text, FALSE);
}

int main(void) {
    char *input = read_input();
    json_object *root = input ? json_tokener_parse(input) : NULL;
    g_free(input);
    json_object *activities;
    if (!root || !json_object_is_type(root, json_type_object) || !json_object_object_get_ex(root, "activities", &activities)
        || !json_object_is_type(activities, json_type_array) || !member(root, "heading")) {
        fprintf(stderr, "actshare-sheet: run by actshare only (expected its JSON on standard input)\n");
        return 2;
    }
    for (size_t i = 0; i < json_object_array_length(activities); i++) {
        json_object *activity = json_object_array_get_idx(activities, i);
        if (!json_object_is_type(activity, json_type_object) || !member(activity, "type") || !member(activity, "title")) {
            fprintf(stderr, "actshare-sheet: activity %zu has no type or title\n", i + 1);
            return 2;
        }
    }
    /* A window of its own, not a GtkApplication: nothing to register on a session bus. */
    if (!gtk_init_check()) {
        fprintf(stderr, "actshare-sheet: cannot open the display\n");
        return 2;
    }
    g_set_prgname("actshare-sheet");
    sheet s = {0};
    build(&s, root);
    while (!s.answered) g_main_context_iteration(NULL, TRUE);
    int chosen = s.chosen != NULL;
    if (chosen) printf("%s\n", s.chosen);
    g_free(s.chosen);
    fflush(stdout);
    json_object_put(root);
    return chosen ? 0 : 1;
}
