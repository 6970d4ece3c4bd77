/*
 * actshare-sheet: the share sheet's window (GTK 4), shown by `actshare` when it runs on a
 * desktop without a terminal (`--picker sheet`, and `--picker auto` there).
 *
 * Written in C: GTK 4 is a C library, and a small C program starts faster and needs no
 * binding layer (docs/DESKTOP.md). It decides nothing. actshare talks to it in JSON
 * lines, one object per line, on its standard input; it answers on its standard output
 * (docs/DESKTOP.md, "The sheet's conversation"):
 *
 *   actshare → sheet
 *     first   {"heading": "notes.txt", "detail": "11 bytes", "content-type": "text/plain",
 *              "thumbnail": "/path/of/an/image", "parent-window": "x11:1e00004",
 *              "activities": [{"type": "org.actshare.mail", "title": "Mail",
 *                              "image": "mail-send"}]}
 *             (with "performing": "Mail", the activity is chosen already, by --activity:
 *             the window opens on its progress, for its questions and result)
 *     then    {"devices": [{"id": "…", "name": "Studio", "reachable": true}]}
 *             {"ask": {"title": "Mail", "question": "To", "note": "…"}}
 *             {"progress": {"title": "Print to PDF", "fraction": 0.5}}   (fraction null: unknown)
 *             {"result": {"title": "Print to PDF", "completed": true, "message": "Saved a.pdf in ~",
 *                         "file": "/…/a.pdf"}}
 *   sheet → actshare
 *             {"shown": true}                 (the window is up: GTK started)
 *             {"activity": "org.actshare.mail"}
 *             {"device": "3f2a…"}   (a device of the row: Hand Off to it, by its id)
 *             {"answer": "ana@example.org"}   or   {"answer": null}  (the question cancelled)
 *             {"cancel": true}                                    (Cancel while it runs)
 *
 * When actshare closes the conversation (it has ended), the window closes, unless it
 * shows a result, which stays until the person closes it. Exit status 0 once an activity
 * was chosen, 1 when the window was closed (Esc) before, 2 for bad input or no display.
 *
 * The window: what is shared (icon or thumbnail, name, detail), the paired devices
 * (Hand Off in one click, reachable ones first), a search field that filters as one types
 * (typing anywhere goes to it), and the activities as a grid of icons with titles
 * wrapped, never cut. Arrows move, Enter performs the focused activity (in the search
 * field: the first one shown), Esc cancels.
 */
#include <glib-unix.h>
#include <gtk/gtk.h>
#include <json.h>

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif
#ifdef GDK_WINDOWING_WAYLAND
#include <gdk/wayland/gdkwayland.h>
#endif

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The longest line read from actshare: far more than any list of activities. */
#define SHEET_LINE_LIMIT (4u << 20)
/* A thumbnail is made only of an image file up to this size and this many pixels:
 * a shared file is outside input, and a decompression bomb must not stall the window. */
#define THUMBNAIL_FILE_LIMIT (64u << 20)
#define THUMBNAIL_PIXEL_LIMIT (64.0 * 1024 * 1024)
#define THUMBNAIL_SIZE 96
/* How long a started activity may run before the window shows its progress: a quick one
 * (Copy) closes the window without a flash of a progress page. */
#define PROGRESS_DELAY_MS 250

typedef enum { CHOOSING, WAITING, ASKING, RUNNING, SHOWING_RESULT } phase;

typedef struct sheet {
    GtkWidget *window, *stack, *search, *grid, *header_icon, *devices_title, *devices;
    GtkWidget *ask_title, *ask_question, *ask_note, *ask_entry;
    GtkWidget *progress_title, *progress_bar, *progress_cancel;
    GtkWidget *result_icon, *result_title, *result_message, *result_open, *result_show;
    char *thumbnail, *result_file, *running_title;
    GString *input;
    phase phase;
    guint progress_timer, pulse_timer;
    int chosen, done;
} sheet;

/* ---- Talking to actshare -------------------------------------------------------- */

/* One answer line on standard output. A closed output (actshare gone) is not an error:
 * its end also closes our input, which ends the window. */
static void reply(json_object *message) {
    const char *text = json_object_to_json_string_ext(message, JSON_C_TO_STRING_PLAIN);
    size_t length = strlen(text), written = 0;
    while (written < length) {
        ssize_t count = write(STDOUT_FILENO, text + written, length - written);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        written += (size_t)count;
    }
    if (written == length) while (write(STDOUT_FILENO, "\n", 1) < 0 && errno == EINTR) {}
    json_object_put(message);
}

static json_object *message_with(const char *key, json_object *value) {
    json_object *message = json_object_new_object();
    json_object_object_add(message, key, value);
    return message;
}

static const char *member(json_object *object, const char *key) {
    json_object *value;
    return json_object_object_get_ex(object, key, &value) && json_object_is_type(value, json_type_string)
        ? json_object_get_string(value) : NULL;
}

static void close_window(sheet *s) {
    s->done = 1;
}

/* ---- Choosing -------------------------------------------------------------------- */

/* An activity (by type) or a device of the row (by id) was chosen. */
static void choose(sheet *s, const char *type, const char *device) {
    if (s->phase != CHOOSING || !(type || device)) return;
    s->phase = WAITING;
    s->chosen = 1;
    reply(type ? message_with("activity", json_object_new_string(type)) : message_with("device", json_object_new_string(device)));
    gtk_widget_set_sensitive(gtk_stack_get_visible_child(GTK_STACK(s->stack)), FALSE);
}

static void on_child_activated(GtkFlowBox *grid, GtkFlowBoxChild *child, gpointer data) {
    (void)grid;
    choose(data, g_object_get_data(G_OBJECT(child), "activity-type"), NULL);
}

static void on_device_clicked(GtkButton *button, gpointer data) {
    choose(data, NULL, g_object_get_data(G_OBJECT(button), "device-id"));
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

/* Enter in the search field: the first activity the search matches (matched here, not
 * by what is shown: the field tells of a change only after a pause in the typing). */
static void on_search_activate(GtkSearchEntry *entry, gpointer data) {
    (void)entry;
    sheet *s = data;
    for (GtkWidget *child = gtk_widget_get_first_child(s->grid); child; child = gtk_widget_get_next_sibling(child)) {
        if (GTK_IS_FLOW_BOX_CHILD(child) && filter(GTK_FLOW_BOX_CHILD(child), s)) {
            choose(s, g_object_get_data(G_OBJECT(child), "activity-type"), NULL);
            return;
        }
    }
}

static void on_search_changed(GtkSearchEntry *entry, gpointer data) {
    (void)entry;
    gtk_flow_box_invalidate_filter(GTK_FLOW_BOX(((sheet *)data)->grid));
}

/* ---- Asking, running, the result ------------------------------------------------ */

static void answer(sheet *s, const char *text) {
    if (s->phase != ASKING) return;
    s->phase = WAITING;
    reply(message_with("answer", text ? json_object_new_string(text) : NULL));
    gtk_widget_set_sensitive(gtk_stack_get_visible_child(GTK_STACK(s->stack)), FALSE);
}

static void on_ask_continue(GtkWidget *widget, gpointer data) {
    (void)widget;
    sheet *s = data;
    answer(s, gtk_editable_get_text(GTK_EDITABLE(s->ask_entry)));
}

static void on_ask_cancel(GtkButton *button, gpointer data) {
    (void)button;
    answer(data, NULL);
}

static void cancel_running(sheet *s) {
    if (s->phase != RUNNING && s->phase != WAITING) return;
    reply(message_with("cancel", json_object_new_boolean(1)));
    gtk_button_set_label(GTK_BUTTON(s->progress_cancel), "Cancelling…");
    gtk_widget_set_sensitive(s->progress_cancel, FALSE);
}

static void on_progress_cancel(GtkButton *button, gpointer data) {
    (void)button;
    cancel_running(data);
}

/* Opens `path` with the desktop's application for it (GIO: no shell). */
static void open_path(const char *path, GtkWidget *window) {
    char *uri = g_filename_to_uri(path, NULL, NULL);
    if (!uri) return;
    GError *error = NULL;
    GdkAppLaunchContext *context = gdk_display_get_app_launch_context(gtk_widget_get_display(window));
    if (!g_app_info_launch_default_for_uri(uri, G_APP_LAUNCH_CONTEXT(context), &error)) {
        g_printerr("actshare-sheet: cannot open %s: %s\n", uri, error->message);
        g_error_free(error);
    }
    g_object_unref(context);
    g_free(uri);
}

static void on_result_open(GtkButton *button, gpointer data) {
    (void)button;
    sheet *s = data;
    open_path(s->result_file, s->window);
    close_window(s);
}

/* Show in folder: the file manager's freedesktop FileManager1 interface selects the file
 * (Nautilus, Dolphin, Nemo, Thunar); without one, the folder opens. */
static void on_result_show(GtkButton *button, gpointer data) {
    (void)button;
    sheet *s = data;
    char *uri = g_filename_to_uri(s->result_file, NULL, NULL);
    gboolean shown = FALSE;
    GDBusConnection *bus = uri ? g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, NULL) : NULL;
    if (bus) {
        const char *uris[] = {uri, NULL};
        GVariant *reply_value = g_dbus_connection_call_sync(
            bus, "org.freedesktop.FileManager1", "/org/freedesktop/FileManager1", "org.freedesktop.FileManager1",
            "ShowItems", g_variant_new("(^ass)", uris, ""), NULL, G_DBUS_CALL_FLAGS_NONE, 3000, NULL, NULL);
        shown = reply_value != NULL;
        if (reply_value) g_variant_unref(reply_value);
        g_object_unref(bus);
    }
    g_free(uri);
    if (!shown) {
        char *folder = g_path_get_dirname(s->result_file);
        open_path(folder, s->window);
        g_free(folder);
    }
    close_window(s);
}

static void on_result_close(GtkButton *button, gpointer data) {
    (void)button;
    close_window(data);
}

/* The window's close button and Esc: before a choice, cancel the share; while it runs,
 * cancel the activity (the window closes when actshare has ended); else close. */
static void dismiss(sheet *s) {
    switch (s->phase) {
    case CHOOSING: close_window(s); break;
    case ASKING: answer(s, NULL); break;
    case RUNNING:
    case WAITING: cancel_running(s); break;
    case SHOWING_RESULT: close_window(s); break;
    }
}

static gboolean on_close_request(GtkWindow *window, gpointer data) {
    (void)window;
    dismiss(data);
    return TRUE;
}

static void on_stop_search(GtkSearchEntry *entry, gpointer data) {
    (void)entry;
    dismiss(data);
}

static gboolean on_escape(GtkWidget *widget, GVariant *arguments, gpointer data) {
    (void)widget;
    (void)arguments;
    dismiss(data);
    return TRUE;
}

/* Enter: with something searched, the first activity shown; else the focused one. Taken
 * before the focused widget sees it, as typing may search while a tile keeps the focus.
 * On the other pages, Enter is the focused widget's (the question's entry continues). */
static gboolean on_enter(GtkWidget *widget, GVariant *arguments, gpointer data) {
    (void)arguments;
    sheet *s = data;
    if (s->phase != CHOOSING) return FALSE;
    const char *text = gtk_editable_get_text(GTK_EDITABLE(s->search));
    if (text && *text) {
        on_search_activate(GTK_SEARCH_ENTRY(s->search), s);
        return TRUE;
    }
    GtkWidget *focus = gtk_root_get_focus(GTK_ROOT(widget));
    while (focus && !GTK_IS_FLOW_BOX_CHILD(focus)) focus = gtk_widget_get_parent(focus);
    if (!focus) return FALSE;
    choose(s, g_object_get_data(G_OBJECT(focus), "activity-type"), NULL);
    return TRUE;
}

/* Space while searching is part of the search ("hostile wait"), not a press of the
 * focused tile: typing reaches the field by key capture, while a tile keeps the focus. */
static gboolean on_space(GtkWidget *widget, GVariant *arguments, gpointer data) {
    (void)widget;
    (void)arguments;
    sheet *s = data;
    const char *text = gtk_editable_get_text(GTK_EDITABLE(s->search));
    if (s->phase != CHOOSING || !text || !*text || gtk_widget_has_focus(s->search)) return FALSE;
    int position = (int)g_utf8_strlen(text, -1);
    gtk_editable_insert_text(GTK_EDITABLE(s->search), " ", 1, &position);
    gtk_editable_set_position(GTK_EDITABLE(s->search), position);
    return TRUE;
}

/* ---- Building the window --------------------------------------------------------- */

static GtkWidget *icon(const char *image, int size) {
    GtkWidget *widget = image && image[0] == '/' ? gtk_image_new_from_file(image)
                                                 : gtk_image_new_from_icon_name(image && *image ? image : "system-run");
    gtk_image_set_pixel_size(GTK_IMAGE(widget), size);
    return widget;
}

/* A title wrapped at word boundaries under an icon, never cut in the middle. */
static GtkWidget *tile_label(const char *title) {
    GtkWidget *label = gtk_label_new(title);
    gtk_label_set_wrap(GTK_LABEL(label), TRUE);
    gtk_label_set_wrap_mode(GTK_LABEL(label), PANGO_WRAP_WORD_CHAR);
    gtk_label_set_justify(GTK_LABEL(label), GTK_JUSTIFY_CENTER);
    gtk_label_set_max_width_chars(GTK_LABEL(label), 12);
    gtk_label_set_width_chars(GTK_LABEL(label), 10);
    return label;
}

static GtkWidget *activity_tile(json_object *activity) {
    const char *type = member(activity, "type"), *title = member(activity, "title");
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    gtk_widget_set_margin_top(box, 8);
    gtk_widget_set_margin_bottom(box, 8);
    gtk_box_append(GTK_BOX(box), icon(member(activity, "image"), 48));
    gtk_box_append(GTK_BOX(box), tile_label(title));
    GtkWidget *child = gtk_flow_box_child_new();
    gtk_flow_box_child_set_child(GTK_FLOW_BOX_CHILD(child), box);
    gtk_widget_set_tooltip_text(child, title);
    g_object_set_data_full(G_OBJECT(child), "activity-type", g_strdup(type), g_free);
    g_object_set_data_full(G_OBJECT(child), "activity-title", g_strdup(title), g_free);
    return child;
}

/* The header's icon: the content type's, for one item. */
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

/* The shared image, small, in place of the header's icon; made after the window is up,
 * and only of a regular file of bounded size and pixel count. */
static gboolean load_thumbnail(gpointer data) {
    sheet *s = data;
    struct stat status;
    int width = 0, height = 0;
    if (stat(s->thumbnail, &status) != 0 || !S_ISREG(status.st_mode) || (unsigned long long)status.st_size > THUMBNAIL_FILE_LIMIT
        || !gdk_pixbuf_get_file_info(s->thumbnail, &width, &height) || width <= 0 || height <= 0
        || (double)width * (double)height > THUMBNAIL_PIXEL_LIMIT) {
        return G_SOURCE_REMOVE;
    }
    /* Made smaller, never larger. */
    GdkPixbuf *pixbuf = gdk_pixbuf_new_from_file_at_scale(s->thumbnail, MIN(width, THUMBNAIL_SIZE), MIN(height, THUMBNAIL_SIZE), TRUE, NULL);
    if (!pixbuf) return G_SOURCE_REMOVE;
    GdkTexture *texture = gdk_texture_new_for_pixbuf(pixbuf);
    g_object_unref(pixbuf);
    GtkWidget *picture = gtk_picture_new_for_paintable(GDK_PAINTABLE(texture));
    g_object_unref(texture);
    gtk_picture_set_can_shrink(GTK_PICTURE(picture), FALSE);
    GtkWidget *header = gtk_widget_get_parent(s->header_icon);
    gtk_box_insert_child_after(GTK_BOX(header), picture, s->header_icon);
    gtk_box_remove(GTK_BOX(header), s->header_icon);
    s->header_icon = picture;
    return G_SOURCE_REMOVE;
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

static GtkWidget *wrapped_label(const char *text, const char *css_class) {
    GtkWidget *label = gtk_label_new(text);
    gtk_label_set_wrap(GTK_LABEL(label), TRUE);
    gtk_label_set_wrap_mode(GTK_LABEL(label), PANGO_WRAP_WORD_CHAR);
    gtk_label_set_xalign(GTK_LABEL(label), 0);
    if (css_class) gtk_widget_add_css_class(label, css_class);
    return label;
}

static GtkWidget *page_box(void) {
    GtkWidget *page = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);
    gtk_widget_set_margin_start(page, 18);
    gtk_widget_set_margin_end(page, 18);
    gtk_widget_set_margin_top(page, 18);
    gtk_widget_set_margin_bottom(page, 18);
    return page;
}

static GtkWidget *button_row(void) {
    GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
    gtk_widget_set_halign(row, GTK_ALIGN_END);
    gtk_widget_set_valign(row, GTK_ALIGN_END);
    gtk_widget_set_vexpand(row, TRUE);
    return row;
}

static GtkWidget *choose_page(sheet *s, json_object *root) {
    GtkWidget *page = page_box();
    GtkWidget *header = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
    s->header_icon = header_icon(member(root, "content-type"));
    gtk_box_append(GTK_BOX(header), s->header_icon);
    GtkWidget *names = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
    gtk_widget_set_valign(names, GTK_ALIGN_CENTER);
    gtk_widget_set_hexpand(names, TRUE);
    gtk_box_append(GTK_BOX(names), wrapped_label(member(root, "heading"), "title-3"));
    char *detail = describe(member(root, "content-type"), member(root, "detail"));
    if (*detail) gtk_box_append(GTK_BOX(names), wrapped_label(detail, "dim-label"));
    g_free(detail);
    gtk_box_append(GTK_BOX(header), names);
    gtk_box_append(GTK_BOX(page), header);

    /* The devices' row: filled when actshare has asked the handoff daemon for them. */
    s->devices_title = wrapped_label("Hand Off to a device", "dim-label");
    gtk_widget_set_visible(s->devices_title, FALSE);
    gtk_box_append(GTK_BOX(page), s->devices_title);
    s->devices = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    gtk_widget_set_visible(s->devices, FALSE);
    gtk_box_append(GTK_BOX(page), s->devices);

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

    g_signal_connect(s->grid, "child-activated", G_CALLBACK(on_child_activated), s);
    g_signal_connect(s->search, "search-changed", G_CALLBACK(on_search_changed), s);
    g_signal_connect(s->search, "activate", G_CALLBACK(on_search_activate), s);
    g_signal_connect(s->search, "stop-search", G_CALLBACK(on_stop_search), s);
    return page;
}

static GtkWidget *ask_page(sheet *s) {
    GtkWidget *page = page_box();
    s->ask_title = wrapped_label("", "title-3");
    gtk_box_append(GTK_BOX(page), s->ask_title);
    s->ask_question = wrapped_label("", NULL);
    gtk_box_append(GTK_BOX(page), s->ask_question);
    s->ask_entry = gtk_entry_new();
    gtk_entry_set_activates_default(GTK_ENTRY(s->ask_entry), FALSE);
    gtk_box_append(GTK_BOX(page), s->ask_entry);
    s->ask_note = wrapped_label("", "error");
    gtk_widget_set_visible(s->ask_note, FALSE);
    gtk_box_append(GTK_BOX(page), s->ask_note);
    GtkWidget *row = button_row();
    GtkWidget *cancel = gtk_button_new_with_mnemonic("_Cancel");
    GtkWidget *next = gtk_button_new_with_mnemonic("C_ontinue");
    gtk_widget_add_css_class(next, "suggested-action");
    gtk_box_append(GTK_BOX(row), cancel);
    gtk_box_append(GTK_BOX(row), next);
    gtk_box_append(GTK_BOX(page), row);
    g_signal_connect(s->ask_entry, "activate", G_CALLBACK(on_ask_continue), s);
    g_signal_connect(next, "clicked", G_CALLBACK(on_ask_continue), s);
    g_signal_connect(cancel, "clicked", G_CALLBACK(on_ask_cancel), s);
    return page;
}

static GtkWidget *progress_page(sheet *s) {
    GtkWidget *page = page_box();
    s->progress_title = wrapped_label("", "title-3");
    gtk_box_append(GTK_BOX(page), s->progress_title);
    s->progress_bar = gtk_progress_bar_new();
    gtk_widget_set_valign(s->progress_bar, GTK_ALIGN_CENTER);
    gtk_widget_set_vexpand(s->progress_bar, TRUE);
    gtk_box_append(GTK_BOX(page), s->progress_bar);
    GtkWidget *row = button_row();
    gtk_widget_set_vexpand(row, FALSE);
    s->progress_cancel = gtk_button_new_with_mnemonic("_Cancel");
    gtk_box_append(GTK_BOX(row), s->progress_cancel);
    gtk_box_append(GTK_BOX(page), row);
    g_signal_connect(s->progress_cancel, "clicked", G_CALLBACK(on_progress_cancel), s);
    return page;
}

static GtkWidget *result_page(sheet *s) {
    GtkWidget *page = page_box();
    GtkWidget *header = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
    s->result_icon = gtk_image_new();
    gtk_image_set_pixel_size(GTK_IMAGE(s->result_icon), 48);
    gtk_box_append(GTK_BOX(header), s->result_icon);
    s->result_title = wrapped_label("", "title-3");
    gtk_widget_set_valign(s->result_title, GTK_ALIGN_CENTER);
    gtk_widget_set_hexpand(s->result_title, TRUE);
    gtk_box_append(GTK_BOX(header), s->result_title);
    gtk_box_append(GTK_BOX(page), header);
    s->result_message = wrapped_label("", NULL);
    gtk_label_set_selectable(GTK_LABEL(s->result_message), TRUE);
    gtk_box_append(GTK_BOX(page), s->result_message);
    GtkWidget *row = button_row();
    s->result_show = gtk_button_new_with_mnemonic("_Show in Folder");
    s->result_open = gtk_button_new_with_mnemonic("_Open");
    gtk_widget_add_css_class(s->result_open, "suggested-action");
    GtkWidget *close = gtk_button_new_with_mnemonic("C_lose");
    gtk_box_append(GTK_BOX(row), close);
    gtk_box_append(GTK_BOX(row), s->result_show);
    gtk_box_append(GTK_BOX(row), s->result_open);
    gtk_box_append(GTK_BOX(page), row);
    g_signal_connect(s->result_open, "clicked", G_CALLBACK(on_result_open), s);
    g_signal_connect(s->result_show, "clicked", G_CALLBACK(on_result_show), s);
    g_signal_connect(close, "clicked", G_CALLBACK(on_result_close), s);
    return page;
}

/* Devices' avatars in the theme's selection (accent) colour, as on a phone's share sheet;
 * theme_selected_* are the names GTK 4 themes define for it (Adwaita, and GTK 3 themes). */
static const char *sheet_css =
    ".device-avatar { background-color: @theme_selected_bg_color; color: @theme_selected_fg_color; border-radius: 9999px; "
    "padding: 10px; }\n"
    ".device-avatar.unreachable { background-color: alpha(currentColor, 0.15); color: inherit; }\n";

static void make_transient(sheet *s, const char *parent);
static gboolean pulse(gpointer data);

static void build(sheet *s, json_object *root) {
    GtkCssProvider *css = gtk_css_provider_new();
    gtk_css_provider_load_from_data(css, sheet_css, -1);
    gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(css),
                                               GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    g_object_unref(css);

    s->window = gtk_window_new();
    gtk_window_set_title(GTK_WINDOW(s->window), "Share");
    gtk_window_set_default_size(GTK_WINDOW(s->window), 480, 440);
    s->stack = gtk_stack_new();
    gtk_stack_add_named(GTK_STACK(s->stack), choose_page(s, root), "choose");
    gtk_stack_add_named(GTK_STACK(s->stack), ask_page(s), "ask");
    gtk_stack_add_named(GTK_STACK(s->stack), progress_page(s), "progress");
    gtk_stack_add_named(GTK_STACK(s->stack), result_page(s), "result");
    gtk_stack_set_visible_child_name(GTK_STACK(s->stack), "choose");
    gtk_window_set_child(GTK_WINDOW(s->window), s->stack);

    g_signal_connect(s->window, "close-request", G_CALLBACK(on_close_request), s);
    /* Typing anywhere searches; Esc anywhere cancels. */
    gtk_search_entry_set_key_capture_widget(GTK_SEARCH_ENTRY(s->search), s->window);
    GtkEventController *keys = gtk_shortcut_controller_new();
    gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE);
    gtk_shortcut_controller_add_shortcut(GTK_SHORTCUT_CONTROLLER(keys),
        gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"), gtk_callback_action_new(on_escape, s, NULL)));
    gtk_shortcut_controller_add_shortcut(GTK_SHORTCUT_CONTROLLER(keys),
        gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Return|KP_Enter"), gtk_callback_action_new(on_enter, s, NULL)));
    gtk_shortcut_controller_add_shortcut(GTK_SHORTCUT_CONTROLLER(keys),
        gtk_shortcut_new(gtk_shortcut_trigger_parse_string("space"), gtk_callback_action_new(on_space, s, NULL)));
    gtk_widget_add_controller(s->window, keys);

    const char *parent = member(root, "parent-window");
    if (parent) {
        gtk_widget_realize(s->window);
        make_transient(s, parent);
    }
    const char *performing = member(root, "performing");
    if (performing) {
        s->phase = RUNNING;
        s->chosen = 1;
        s->running_title = g_strdup(performing);
        char *text = g_strdup_printf("%s…", performing);
        gtk_label_set_text(GTK_LABEL(s->progress_title), text);
        g_free(text);
        gtk_stack_set_visible_child_name(GTK_STACK(s->stack), "progress");
        gtk_window_set_title(GTK_WINDOW(s->window), performing);
        s->pulse_timer = g_timeout_add(100, pulse, s);
    }
    gtk_window_present(GTK_WINDOW(s->window));
    reply(message_with("shown", json_object_new_boolean(1)));
    GtkFlowBoxChild *first = gtk_flow_box_get_child_at_index(GTK_FLOW_BOX(s->grid), 0);
    if (performing) gtk_widget_grab_focus(s->progress_cancel);
    else if (first) gtk_widget_grab_focus(GTK_WIDGET(first));
    const char *thumbnail = member(root, "thumbnail");
    if (thumbnail && thumbnail[0] == '/') {
        s->thumbnail = g_strdup(thumbnail);
        g_idle_add(load_thumbnail, s);
    }
}

/* Over the calling application's window, when it gave one as the portals do
 * ("x11:XID" in hex, "wayland:HANDLE" exported with xdg-foreign); others are ignored. */
static void make_transient(sheet *s, const char *parent) {
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(s->window));
    (void)surface;
#ifdef GDK_WINDOWING_X11
    if (g_str_has_prefix(parent, "x11:") && GDK_IS_X11_SURFACE(surface)) {
        const char *hex = parent + 4;
        size_t length = strlen(hex);
        if (length == 0 || length > 8 || strspn(hex, "0123456789abcdefABCDEF") != length) return;
        Window xid = (Window)strtoul(hex, NULL, 16);
        Display *display = gdk_x11_display_get_xdisplay(gdk_surface_get_display(surface));
        XSetTransientForHint(display, gdk_x11_surface_get_xid(surface), xid);
        return;
    }
#endif
#ifdef GDK_WINDOWING_WAYLAND
    if (g_str_has_prefix(parent, "wayland:") && GDK_IS_WAYLAND_TOPLEVEL(surface)) {
        const char *handle = parent + 8;
        for (const char *c = handle; *c; c++) if (*c <= ' ' || *c == 0x7f) return;
        if (*handle && strlen(handle) < 256) gdk_wayland_toplevel_set_transient_for_exported(GDK_TOPLEVEL(surface), (char *)handle);
    }
#endif
}

/* ---- What actshare says after the first line -------------------------------------- */

static GtkWidget *device_button(sheet *s, json_object *device) {
    const char *id = member(device, "id"), *name = member(device, "name");
    json_object *reachable_value;
    gboolean reachable = json_object_object_get_ex(device, "reachable", &reachable_value) && json_object_get_boolean(reachable_value);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
    GtkWidget *avatar = icon("computer-symbolic", 28);
    gtk_widget_add_css_class(avatar, "device-avatar");
    if (!reachable) gtk_widget_add_css_class(avatar, "unreachable");
    gtk_widget_set_halign(avatar, GTK_ALIGN_CENTER);
    gtk_box_append(GTK_BOX(box), avatar);
    gtk_box_append(GTK_BOX(box), tile_label(name));
    GtkWidget *button = gtk_button_new();
    gtk_widget_add_css_class(button, "flat");
    gtk_button_set_child(GTK_BUTTON(button), box);
    char *tip = reachable ? g_strdup_printf("Hand Off to %s", name)
                          : g_strdup_printf("Hand Off to %s (not reachable now: the files wait until it is)", name);
    gtk_widget_set_tooltip_text(button, tip);
    g_free(tip);
    g_object_set_data_full(G_OBJECT(button), "device-id", g_strdup(id), g_free);
    g_signal_connect(button, "clicked", G_CALLBACK(on_device_clicked), s);
    return button;
}

static void show_devices(sheet *s, json_object *devices) {
    if (!json_object_is_type(devices, json_type_array)) return;
    GtkWidget *child;
    while ((child = gtk_widget_get_first_child(s->devices))) gtk_box_remove(GTK_BOX(s->devices), child);
    int shown = 0;
    /* Reachable devices first, each group in actshare's order. */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < json_object_array_length(devices) && shown < 8; i++) {
            json_object *device = json_object_array_get_idx(devices, i), *reachable;
            if (!json_object_is_type(device, json_type_object) || !member(device, "id") || !member(device, "name")) continue;
            gboolean is_reachable = json_object_object_get_ex(device, "reachable", &reachable) && json_object_get_boolean(reachable);
            if (is_reachable != (pass == 0)) continue;
            gtk_box_append(GTK_BOX(s->devices), device_button(s, device));
            shown++;
        }
    }
    gtk_widget_set_visible(s->devices_title, shown > 0);
    gtk_widget_set_visible(s->devices, shown > 0);
}

static void ask(sheet *s, json_object *question) {
    const char *title = member(question, "title"), *text = member(question, "question"), *note = member(question, "note");
    gtk_label_set_text(GTK_LABEL(s->ask_title), title ? title : "Share");
    gtk_label_set_text(GTK_LABEL(s->ask_question), text ? text : "");
    gtk_label_set_text(GTK_LABEL(s->ask_note), note ? note : "");
    gtk_widget_set_visible(s->ask_note, note != NULL);
    gtk_editable_set_text(GTK_EDITABLE(s->ask_entry), "");
    GtkWidget *page = gtk_stack_get_child_by_name(GTK_STACK(s->stack), "ask");
    gtk_widget_set_sensitive(page, TRUE);
    gtk_stack_set_visible_child(GTK_STACK(s->stack), page);
    gtk_widget_grab_focus(s->ask_entry);
    gtk_window_set_title(GTK_WINDOW(s->window), title ? title : "Share");
    s->phase = ASKING;
}

static gboolean pulse(gpointer data) {
    gtk_progress_bar_pulse(GTK_PROGRESS_BAR(((sheet *)data)->progress_bar));
    return G_SOURCE_CONTINUE;
}

static gboolean show_progress_page(gpointer data) {
    sheet *s = data;
    s->progress_timer = 0;
    gtk_stack_set_visible_child_name(GTK_STACK(s->stack), "progress");
    gtk_window_set_title(GTK_WINDOW(s->window), s->running_title);
    gtk_widget_grab_focus(s->progress_cancel);
    return G_SOURCE_REMOVE;
}

static void progress(sheet *s, json_object *report) {
    const char *title = member(report, "title");
    json_object *fraction;
    if (s->phase != RUNNING) {
        s->phase = RUNNING;
        g_free(s->running_title);
        s->running_title = g_strdup(title ? title : "Share");
        char *text = g_strdup_printf("%s…", s->running_title);
        gtk_label_set_text(GTK_LABEL(s->progress_title), text);
        g_free(text);
        s->progress_timer = g_timeout_add(PROGRESS_DELAY_MS, show_progress_page, s);
    }
    if (json_object_object_get_ex(report, "fraction", &fraction) && json_object_is_type(fraction, json_type_double)) {
        if (s->pulse_timer) g_source_remove(s->pulse_timer);
        s->pulse_timer = 0;
        double value = json_object_get_double(fraction);
        gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(s->progress_bar), value < 0 ? 0 : value > 1 ? 1 : value);
    } else if (!s->pulse_timer) {
        s->pulse_timer = g_timeout_add(100, pulse, s);
    }
}

static void stop_timers(sheet *s) {
    if (s->progress_timer) g_source_remove(s->progress_timer);
    if (s->pulse_timer) g_source_remove(s->pulse_timer);
    s->progress_timer = s->pulse_timer = 0;
}

static void show_result(sheet *s, json_object *result) {
    json_object *completed_value;
    gboolean completed = json_object_object_get_ex(result, "completed", &completed_value) && json_object_get_boolean(completed_value);
    const char *message = member(result, "message"), *file = member(result, "file");
    stop_timers(s);
    s->phase = SHOWING_RESULT;
    g_free(s->result_file);
    s->result_file = file && file[0] == '/' ? g_strdup(file) : NULL;
    gtk_image_set_from_icon_name(GTK_IMAGE(s->result_icon), completed ? "emblem-ok-symbolic" : "dialog-error");
    const char *title = member(result, "title");
    char *heading = completed ? g_strdup_printf("%s: done", title ? title : "Share")
                              : g_strdup_printf("%s failed", title ? title : "The share");
    gtk_label_set_text(GTK_LABEL(s->result_title), heading);
    g_free(heading);
    gtk_label_set_text(GTK_LABEL(s->result_message), message ? message : "");
    gtk_widget_set_visible(s->result_open, s->result_file != NULL);
    gtk_widget_set_visible(s->result_show, s->result_file != NULL);
    gtk_stack_set_visible_child_name(GTK_STACK(s->stack), "result");
    gtk_widget_grab_focus(s->result_file ? s->result_open : gtk_widget_get_last_child(gtk_widget_get_parent(s->result_open)));
    gtk_window_set_title(GTK_WINDOW(s->window), completed ? "Shared" : "Share failed");
}

static void handle(sheet *s, json_object *message) {
    json_object *value;
    if (json_object_object_get_ex(message, "devices", &value)) {
        show_devices(s, value);
    } else if (json_object_object_get_ex(message, "ask", &value) && json_object_is_type(value, json_type_object)) {
        if (s->phase == WAITING || s->phase == RUNNING) {
            stop_timers(s);
            ask(s, value);
        }
    } else if (json_object_object_get_ex(message, "progress", &value) && json_object_is_type(value, json_type_object)) {
        if (s->phase == WAITING || s->phase == RUNNING) progress(s, value);
    } else if (json_object_object_get_ex(message, "result", &value) && json_object_is_type(value, json_type_object)) {
        show_result(s, value);
    }
    /* Anything else is from a newer actshare: ignored. */
}

/* More of standard input: whole lines are handled; its end ends the window, unless a
 * result is shown. */
static gboolean on_input(gint fd, GIOCondition condition, gpointer data) {
    (void)condition;
    sheet *s = data;
    char chunk[65536];
    ssize_t count = read(fd, chunk, sizeof chunk);
    if (count < 0 && (errno == EINTR || errno == EAGAIN)) return G_SOURCE_CONTINUE;
    if (count <= 0 || s->input->len + (size_t)count > SHEET_LINE_LIMIT) {
        if (s->phase != SHOWING_RESULT) close_window(s);
        return G_SOURCE_REMOVE;
    }
    g_string_append_len(s->input, chunk, count);
    char *newline;
    while ((newline = memchr(s->input->str, '\n', s->input->len))) {
        *newline = '\0';
        json_object *message = json_tokener_parse(s->input->str);
        g_string_erase(s->input, 0, newline - s->input->str + 1);
        if (message && json_object_is_type(message, json_type_object)) handle(s, message);
        if (message) json_object_put(message);
    }
    return G_SOURCE_CONTINUE;
}

/* The first line of standard input (what to show), at most SHEET_LINE_LIMIT bytes; what
 * follows it is kept for on_input. */
static char *read_first_line(GString *rest) {
    GString *text = g_string_new(NULL);
    char chunk[65536];
    for (;;) {
        char *newline = memchr(text->str, '\n', text->len);
        if (newline) {
            g_string_append(rest, newline + 1);
            g_string_truncate(text, newline - text->str);
            return g_string_free(text, FALSE);
        }
        ssize_t count = read(STDIN_FILENO, chunk, sizeof chunk);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return g_string_free(text, text->len == 0);
        if (text->len + (size_t)count > SHEET_LINE_LIMIT) break;
        g_string_append_len(text, chunk, count);
    }
    g_string_free(text, TRUE);
    return NULL;
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    sheet s = {0};
    s.input = g_string_new(NULL);
    char *input = read_first_line(s.input);
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
    build(&s, root);
    json_object_put(root);
    g_unix_fd_add(STDIN_FILENO, G_IO_IN | G_IO_HUP | G_IO_ERR, on_input, &s);
    /* Lines that came with the first one. */
    if (s.input->len) {
        GString *early = s.input;
        s.input = g_string_new(NULL);
        char *line, *cursor = early->str;
        while ((line = strsep(&cursor, "\n")) && cursor) {
            json_object *message = json_tokener_parse(line);
            if (message && json_object_is_type(message, json_type_object)) handle(&s, message);
            if (message) json_object_put(message);
        }
        if (line) g_string_append(s.input, line);
        g_string_free(early, TRUE);
    }
    while (!s.done) g_main_context_iteration(NULL, TRUE);
    gtk_window_destroy(GTK_WINDOW(s.window));
    stop_timers(&s);
    g_free(s.thumbnail);
    g_free(s.result_file);
    g_free(s.running_title);
    g_string_free(s.input, TRUE);
    return s.chosen ? 0 : 1;
}
