#include "as-share-window.h"


#include "as-ask-page.h"
#include "as-choose-page.h"
#include "as-progress-page.h"
#include "as-result-page.h"

#include <gio/gdesktopappinfo.h>
#include <glib/gi18n.h>

#ifdef GDK_WINDOWING_X11
#include <X11/Xatom.h>
#include <gdk/x11/gdkx.h>
#endif
#ifdef GDK_WINDOWING_WAYLAND
#include <gdk/wayland/gdkwayland.h>
#endif

#include <stdlib.h>
#include <string.h>

/* How long a started activity may run before the window shows its progress: a quick one
 * (Copy) closes the window without a flash of a progress page. */
#define PROGRESS_DELAY_MS 250
/* The window's width, and the share of the screen's height it may take. */
#define WINDOW_WIDTH 520
#define SCREEN_HEIGHT_SHARE 0.75

typedef enum { PHASE_CHOOSING, PHASE_WAITING, PHASE_ASKING, PHASE_RUNNING, PHASE_SHOWING_RESULT } Phase;

struct _AsShareWindow {
    GtkWindow parent_instance;
    GtkStack *stack;
    AsChoosePage *choose_page;
    AsAskPage *ask_page;
    AsProgressPage *progress_page;
    AsResultPage *result_page;
    AsConversation *conversation;
    Phase phase;
    char *running_title, *result_file, *parent;
    guint progress_timer;
    gboolean chosen, done;
};

G_DEFINE_TYPE(AsShareWindow, as_share_window, GTK_TYPE_WINDOW)

static void stop_timer(AsShareWindow *self) {
    if (self->progress_timer) g_source_remove(self->progress_timer);
    self->progress_timer = 0;
}

static void as_share_window_dispose(GObject *object) {
    AsShareWindow *self = AS_SHARE_WINDOW(object);
    stop_timer(self);
    if (self->conversation) g_signal_handlers_disconnect_by_data(self->conversation, self);
    g_clear_object(&self->conversation);
    /* No gtk_widget_dispose_template: a window disposes of its child itself. */
    G_OBJECT_CLASS(as_share_window_parent_class)->dispose(object);
}

static void as_share_window_finalize(GObject *object) {
    AsShareWindow *self = AS_SHARE_WINDOW(object);
    g_free(self->running_title);
    g_free(self->result_file);
    g_free(self->parent);
    G_OBJECT_CLASS(as_share_window_parent_class)->finalize(object);
}

/* Shows one page; the others are hidden, not only covered, so that a screen reader
 * reads only what is on the screen. */
static void show_page(AsShareWindow *self, GtkWidget *page, const char *title) {
    gtk_widget_set_sensitive(page, TRUE);
    gtk_widget_set_visible(page, TRUE);
    gtk_stack_set_visible_child(self->stack, page);
    for (GtkWidget *other = gtk_widget_get_first_child(GTK_WIDGET(self->stack)); other; other = gtk_widget_get_next_sibling(other)) {
        if (other != page) gtk_widget_set_visible(other, FALSE);
    }
    gtk_window_set_title(GTK_WINDOW(self), title);
}

/* A choice or an answer went to actshare: the page waits for what it says next. */
static void wait_for_actshare(AsShareWindow *self) {
    self->phase = PHASE_WAITING;
    gtk_widget_set_sensitive(gtk_stack_get_visible_child(self->stack), FALSE);
}

/* ---- The person's choices ----------------------------------------------------------- */

static void on_activity_chosen(AsChoosePage *page, const char *type, AsShareWindow *self) {
    (void)page;
    if (self->phase != PHASE_CHOOSING) return;
    self->chosen = TRUE;
    as_conversation_send_activity(self->conversation, type);
    wait_for_actshare(self);
}

/* For a target that is an installed application (its desktop file's id): the token the
 * desktop gives this window for starting it, so that it may take the focus (a startup
 * notification's id on X11, an xdg-activation token on Wayland); NULL otherwise. */
static char *activation_token(AsShareWindow *self, const char *target) {
    g_autoptr(GDesktopAppInfo) app = g_str_has_suffix(target, ".desktop") ? g_desktop_app_info_new(target) : NULL;
    if (!app) return NULL;
    g_autoptr(GdkAppLaunchContext) context = gdk_display_get_app_launch_context(gtk_widget_get_display(GTK_WIDGET(self)));
    return g_app_launch_context_get_startup_notify_id(G_APP_LAUNCH_CONTEXT(context), G_APP_INFO(app), NULL);
}

static void on_target_chosen(AsChoosePage *page, const char *type, const char *target, AsShareWindow *self) {
    (void)page;
    if (self->phase != PHASE_CHOOSING) return;
    self->chosen = TRUE;
    g_autofree char *token = activation_token(self, target);
    as_conversation_send_target(self->conversation, type, target, token);
    wait_for_actshare(self);
}

static void on_answered(AsAskPage *page, const char *answer, AsShareWindow *self) {
    (void)page;
    if (self->phase != PHASE_ASKING) return;
    as_conversation_send_answer(self->conversation, answer);
    wait_for_actshare(self);
}

static void cancel_running(AsShareWindow *self) {
    if (self->phase != PHASE_RUNNING && self->phase != PHASE_WAITING) return;
    as_conversation_send_cancel(self->conversation);
    as_progress_page_set_cancelling(self->progress_page);
}

static void on_cancel(AsProgressPage *page, AsShareWindow *self) {
    (void)page;
    cancel_running(self);
}

/* Opens `path` with the desktop's application for it (GIO: no shell). */
static void open_path(AsShareWindow *self, const char *path) {
    g_autofree char *uri = g_filename_to_uri(path, NULL, NULL);
    if (!uri) return;
    g_autoptr(GError) error = NULL;
    g_autoptr(GdkAppLaunchContext) context = gdk_display_get_app_launch_context(gtk_widget_get_display(GTK_WIDGET(self)));
    if (!g_app_info_launch_default_for_uri(uri, G_APP_LAUNCH_CONTEXT(context), &error)) {
        g_printerr("actshare-sheet: cannot open %s: %s\n", uri, error->message);
    }
}

static void on_open(AsResultPage *page, AsShareWindow *self) {
    (void)page;
    open_path(self, self->result_file);
    self->done = TRUE;
}

/* Show in Folder: the file manager's freedesktop FileManager1 interface selects the file
 * (Nautilus, Dolphin, Nemo, Thunar); without one, the folder opens. */
static void on_show_in_folder(AsResultPage *page, AsShareWindow *self) {
    (void)page;
    g_autofree char *uri = g_filename_to_uri(self->result_file, NULL, NULL);
    g_autoptr(GDBusConnection) bus = uri ? g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, NULL) : NULL;
    g_autoptr(GVariant) shown = NULL;
    if (bus) {
        const char *uris[] = {uri, NULL};
        shown = g_dbus_connection_call_sync(bus, "org.freedesktop.FileManager1", "/org/freedesktop/FileManager1",
                                            "org.freedesktop.FileManager1", "ShowItems", g_variant_new("(^ass)", uris, ""),
                                            NULL, G_DBUS_CALL_FLAGS_NONE, 3000, NULL, NULL);
    }
    if (!shown) {
        g_autofree char *folder = g_path_get_dirname(self->result_file);
        open_path(self, folder);
    }
    self->done = TRUE;
}

static void on_result_close(AsResultPage *page, AsShareWindow *self) {
    (void)page;
    self->done = TRUE;
}

/* The window's close button and Esc: before a choice, cancel the share; while it runs,
 * cancel the activity (the window closes when actshare has ended); else close. */
static void dismiss(AsShareWindow *self) {
    switch (self->phase) {
    case PHASE_CHOOSING: self->done = TRUE; break;
    case PHASE_ASKING: on_answered(self->ask_page, NULL, self); break;
    case PHASE_RUNNING:
    case PHASE_WAITING: cancel_running(self); break;
    case PHASE_SHOWING_RESULT: self->done = TRUE; break;
    }
}

static gboolean on_close_request(GtkWindow *window) {
    dismiss(AS_SHARE_WINDOW(window));
    return TRUE;
}

static gboolean on_escape(GtkWidget *widget, GVariant *arguments, gpointer data) {
    (void)arguments;
    (void)data;
    AsShareWindow *self = AS_SHARE_WINDOW(widget);
    /* A search is cleared first: Esc again cancels. */
    if (self->phase == PHASE_CHOOSING && as_choose_page_clear_search(self->choose_page)) return TRUE;
    dismiss(self);
    return TRUE;
}

/* Enter on the choose page: taken before the focused widget sees it, as typing may
 * search while a tile keeps the focus. On the other pages, Enter is the focused widget's. */
static gboolean on_enter(GtkWidget *widget, GVariant *arguments, gpointer data) {
    (void)arguments;
    (void)data;
    AsShareWindow *self = AS_SHARE_WINDOW(widget);
    if (self->phase != PHASE_CHOOSING) return FALSE;
    GtkWidget *focus = gtk_root_get_focus(GTK_ROOT(self));
    /* A target's button has the focus: Enter presses it. */
    while (focus && !GTK_IS_BUTTON(focus) && focus != GTK_WIDGET(self)) focus = gtk_widget_get_parent(focus);
    if (focus && GTK_IS_BUTTON(focus)) return FALSE;
    return as_choose_page_choose_current(self->choose_page);
}

static gboolean on_space(GtkWidget *widget, GVariant *arguments, gpointer data) {
    (void)arguments;
    (void)data;
    AsShareWindow *self = AS_SHARE_WINDOW(widget);
    return self->phase == PHASE_CHOOSING && as_choose_page_type_space(self->choose_page);
}

/* ---- What actshare says ------------------------------------------------------------- */

static void on_ask(AsConversation *conversation, const char *title, const char *question, const char *note,
                   const char *kind, AsShareWindow *self) {
    (void)conversation;
    if (self->phase != PHASE_WAITING && self->phase != PHASE_RUNNING) return;
    stop_timer(self);
    show_page(self, GTK_WIDGET(self->ask_page), title ? title : _("Share"));
    as_ask_page_ask(self->ask_page, title, question, note, kind);
    self->phase = PHASE_ASKING;
}

static gboolean show_progress_page(gpointer data) {
    AsShareWindow *self = data;
    self->progress_timer = 0;
    show_page(self, GTK_WIDGET(self->progress_page), self->running_title);
    as_progress_page_focus_cancel(self->progress_page);
    return G_SOURCE_REMOVE;
}

static void start_running(AsShareWindow *self, const char *title) {
    self->phase = PHASE_RUNNING;
    g_free(self->running_title);
    self->running_title = g_strdup(title ? title : _("Share"));
    as_progress_page_set_title(self->progress_page, self->running_title);
}

static void on_progress(AsConversation *conversation, const char *title, double fraction, AsShareWindow *self) {
    (void)conversation;
    if (self->phase != PHASE_WAITING && self->phase != PHASE_RUNNING) return;
    if (self->phase != PHASE_RUNNING) {
        start_running(self, title);
        self->progress_timer = g_timeout_add(PROGRESS_DELAY_MS, show_progress_page, self);
    }
    as_progress_page_set_fraction(self->progress_page, fraction);
}

static void on_result(AsConversation *conversation, const AsResult *result, AsShareWindow *self) {
    (void)conversation;
    stop_timer(self);
    self->phase = PHASE_SHOWING_RESULT;
    g_free(self->result_file);
    self->result_file = g_strdup(result->file);
    show_page(self, GTK_WIDGET(self->result_page), "");
    as_result_page_show(self->result_page, result);
    gtk_window_set_title(GTK_WINDOW(self), as_result_page_get_window_title(self->result_page));
}

/* actshare has ended: the window closes, unless it shows a result, which stays until the
 * person closes it. */
static void on_ended(AsConversation *conversation, AsShareWindow *self) {
    (void)conversation;
    if (self->phase != PHASE_SHOWING_RESULT) self->done = TRUE;
}

/* ---- Placing the window ------------------------------------------------------------- */

/* Over the calling application's window, as a dialog of it, when it gave one as the
 * portals do ("x11:XID" in hex, "wayland:HANDLE" exported with xdg-foreign); others are
 * ignored. Said to the window manager before the window is mapped, so that it places
 * the window over its parent and keeps it there (modal). */
static void make_transient(AsShareWindow *self) {
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(self));
    (void)surface;
#ifdef GDK_WINDOWING_X11
    if (g_str_has_prefix(self->parent, "x11:") && GDK_IS_X11_SURFACE(surface)) {
        const char *hex = self->parent + 4;
        size_t length = strlen(hex);
        if (length == 0 || length > 8 || strspn(hex, "0123456789abcdefABCDEF") != length) return;
        Window parent = (Window)strtoul(hex, NULL, 16);
        Display *display = gdk_x11_display_get_xdisplay(gdk_surface_get_display(surface));
        Window window = gdk_x11_surface_get_xid(surface);
        XSetTransientForHint(display, window, parent);
        Atom type = XInternAtom(display, "_NET_WM_WINDOW_TYPE", False);
        Atom dialog = XInternAtom(display, "_NET_WM_WINDOW_TYPE_DIALOG", False);
        XChangeProperty(display, window, type, XA_ATOM, 32, PropModeReplace, (unsigned char *)&dialog, 1);
        return;
    }
#endif
#ifdef GDK_WINDOWING_WAYLAND
    if (g_str_has_prefix(self->parent, "wayland:") && GDK_IS_WAYLAND_TOPLEVEL(surface)) {
        const char *handle = self->parent + 8;
        for (const char *c = handle; *c; c++) {
            if (*c <= ' ' || *c == 0x7f) return;
        }
        if (*handle && strlen(handle) < 256) gdk_wayland_toplevel_set_transient_for_exported(GDK_TOPLEVEL(surface), (char *)handle);
    }
#endif
}

/* The window fits its content, within a share of the screen's height: the grid scrolls
 * past that. */
static void fit_to_screen(AsShareWindow *self) {
    GdkDisplay *display = gtk_widget_get_display(GTK_WIDGET(self));
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(self));
    /* Before it is mapped the window is on no monitor yet: the first one stands in. */
    g_autoptr(GdkMonitor) monitor = surface ? gdk_display_get_monitor_at_surface(display, surface) : NULL;
    if (monitor) g_object_ref(monitor);
    else monitor = g_list_model_get_item(gdk_display_get_monitors(display), 0);
    if (!monitor) return;
    GdkRectangle area;
    gdk_monitor_get_geometry(monitor, &area);
    /* The header, the targets' rows and search take about 256 pixels above the grid. */
    as_choose_page_set_max_grid_height(self->choose_page, (int)(area.height * SCREEN_HEIGHT_SHARE) - 256);
}

/* ---- The window --------------------------------------------------------------------- */

static void as_share_window_class_init(AsShareWindowClass *klass) {
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->dispose = as_share_window_dispose;
    G_OBJECT_CLASS(klass)->finalize = as_share_window_finalize;
    GTK_WINDOW_CLASS(klass)->close_request = on_close_request;
    g_type_ensure(AS_TYPE_CHOOSE_PAGE);
    g_type_ensure(AS_TYPE_ASK_PAGE);
    g_type_ensure(AS_TYPE_PROGRESS_PAGE);
    g_type_ensure(AS_TYPE_RESULT_PAGE);
    gtk_widget_class_set_template_from_resource(widget_class, "/org/actshare/Sheet/as-share-window.ui");
    gtk_widget_class_bind_template_child(widget_class, AsShareWindow, stack);
    gtk_widget_class_bind_template_child(widget_class, AsShareWindow, choose_page);
    gtk_widget_class_bind_template_child(widget_class, AsShareWindow, ask_page);
    gtk_widget_class_bind_template_child(widget_class, AsShareWindow, progress_page);
    gtk_widget_class_bind_template_child(widget_class, AsShareWindow, result_page);
    gtk_widget_class_bind_template_callback(widget_class, on_activity_chosen);
    gtk_widget_class_bind_template_callback(widget_class, on_target_chosen);
    gtk_widget_class_bind_template_callback(widget_class, on_answered);
    gtk_widget_class_bind_template_callback(widget_class, on_cancel);
    gtk_widget_class_bind_template_callback(widget_class, on_open);
    gtk_widget_class_bind_template_callback(widget_class, on_show_in_folder);
    gtk_widget_class_bind_template_callback(widget_class, on_result_close);
}

static void as_share_window_init(AsShareWindow *self) {
    gtk_widget_init_template(GTK_WIDGET(self));
    /* Taken before the focused widget: Enter and Space may belong to the search while a
     * tile keeps the focus, and Esc clears the search before it cancels. */
    GtkEventController *keys = gtk_shortcut_controller_new();
    gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE);
    struct {
        const char *trigger;
        GtkShortcutFunc function;
    } shortcuts[] = {{"Escape", on_escape}, {"Return|KP_Enter", on_enter}, {"space", on_space}};
    for (size_t i = 0; i < G_N_ELEMENTS(shortcuts); i++) {
        gtk_shortcut_controller_add_shortcut(
            GTK_SHORTCUT_CONTROLLER(keys),
            gtk_shortcut_new(gtk_shortcut_trigger_parse_string(shortcuts[i].trigger), gtk_callback_action_new(shortcuts[i].function, NULL, NULL)));
    }
    gtk_widget_add_controller(GTK_WIDGET(self), keys);
}

AsShareWindow *as_share_window_new(AsConversation *conversation, const AsRequest *request) {
    AsShareWindow *self = g_object_new(AS_TYPE_SHARE_WINDOW, NULL);
    self->conversation = g_object_ref(conversation);
    self->parent = g_strdup(request->parent_window);
    gtk_window_set_default_size(GTK_WINDOW(self), WINDOW_WIDTH, -1);
    as_choose_page_show_request(self->choose_page, request);
    as_choose_page_capture_keys(self->choose_page, GTK_WIDGET(self));
    g_signal_connect(conversation, "ask", G_CALLBACK(on_ask), self);
    g_signal_connect(conversation, "progress", G_CALLBACK(on_progress), self);
    g_signal_connect(conversation, "result", G_CALLBACK(on_result), self);
    g_signal_connect(conversation, "ended", G_CALLBACK(on_ended), self);
    if (request->performing) {
        /* The activity is chosen already (--activity): the window opens on its progress. */
        self->chosen = TRUE;
        start_running(self, request->performing);
        as_progress_page_set_fraction(self->progress_page, -1);
        show_page(self, GTK_WIDGET(self->progress_page), self->running_title);
    } else {
        show_page(self, GTK_WIDGET(self->choose_page), _("Share"));
    }
    return self;
}

int as_share_window_run(AsShareWindow *self) {
    /* Modal for its parent: said to the window manager by GDK (_NET_WM_STATE_MODAL). */
    if (self->parent) gtk_window_set_modal(GTK_WINDOW(self), TRUE);
    gtk_widget_realize(GTK_WIDGET(self));
    if (self->parent) make_transient(self);
    fit_to_screen(self);
    gtk_window_present(GTK_WINDOW(self));
    if (self->phase == PHASE_RUNNING) {
        as_progress_page_focus_cancel(self->progress_page);
    } else {
        as_choose_page_focus_first(self->choose_page);
    }
    as_conversation_send_shown(self->conversation);
    as_conversation_start(self->conversation);
    while (!self->done) g_main_context_iteration(NULL, TRUE);
    gtk_widget_set_visible(GTK_WIDGET(self), FALSE);
    return self->chosen ? 0 : 1;
}
