#include "as-result-page.h"

#include <glib/gi18n.h>

struct _AsResultPage {
    GtkBox parent_instance;
    GtkImage *icon;
    GtkPicture *picture;
    GtkLabel *title, *message, *details;
    GtkExpander *expander;
    GtkWidget *open, *show_in_folder, *close;
    const char *window_title;
};

G_DEFINE_TYPE(AsResultPage, as_result_page, GTK_TYPE_BOX)

enum { SIGNAL_OPEN, SIGNAL_SHOW_IN_FOLDER, SIGNAL_CLOSE, N_SIGNALS };
static guint signals[N_SIGNALS];

static void as_result_page_dispose(GObject *object) {
    gtk_widget_dispose_template(GTK_WIDGET(object), AS_TYPE_RESULT_PAGE);
    G_OBJECT_CLASS(as_result_page_parent_class)->dispose(object);
}

static void on_open(GtkButton *button, AsResultPage *self) {
    (void)button;
    g_signal_emit(self, signals[SIGNAL_OPEN], 0);
}

static void on_show_in_folder(GtkButton *button, AsResultPage *self) {
    (void)button;
    g_signal_emit(self, signals[SIGNAL_SHOW_IN_FOLDER], 0);
}

static void on_close(GtkButton *button, AsResultPage *self) {
    (void)button;
    g_signal_emit(self, signals[SIGNAL_CLOSE], 0);
}

void as_result_page_show(AsResultPage *self, const AsResult *result) {
    const char *title = result->title;
    g_autofree char *heading = NULL;
    if (result->completed) {
        heading = g_strdup_printf(_("%s: done"), title ? title : _("Share"));
    } else if (result->fault && title) {
        heading = g_strdup_printf(_("%s stopped working"), title);
    } else if (title) {
        heading = g_strdup_printf(_("%s did not complete"), title);
    } else {
        heading = g_strdup(_("The share did not complete"));
    }
    gtk_label_set_text(self->title, heading);
    gtk_image_set_from_icon_name(self->icon, result->completed ? "emblem-ok-symbolic" : "dialog-error");
    const char *message = result->message;
    if (!message && result->fault) message = _("It failed inside; nothing was shared. The details are for its developer.");
    gtk_label_set_text(self->message, message ? message : "");
    gtk_widget_set_visible(GTK_WIDGET(self->message), message != NULL);
    gtk_label_set_text(self->details, result->details ? result->details : "");
    gtk_widget_set_visible(GTK_WIDGET(self->expander), result->details != NULL);
    gtk_expander_set_expanded(self->expander, FALSE);
    gboolean file = result->file != NULL;
    /* A PNG made is shown (Show QR Code's code); the message says what it holds. */
    gboolean picture = file && result->completed && g_str_has_suffix(result->file, ".png");
    gtk_picture_set_filename(self->picture, picture ? result->file : NULL);
    gtk_picture_set_alternative_text(self->picture, picture ? message : NULL);
    gtk_widget_set_visible(GTK_WIDGET(self->picture), picture);
    gtk_widget_set_visible(self->open, file);
    gtk_widget_set_visible(self->show_in_folder, file);
    gtk_widget_grab_focus(file ? self->open : self->close);
    self->window_title = result->completed ? _("Shared") : _("Share failed");
}

const char *as_result_page_get_window_title(AsResultPage *self) {
    return self->window_title;
}

static void as_result_page_class_init(AsResultPageClass *klass) {
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->dispose = as_result_page_dispose;
    signals[SIGNAL_OPEN] = g_signal_new("open", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
    signals[SIGNAL_SHOW_IN_FOLDER] = g_signal_new("show-in-folder", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                                  NULL, G_TYPE_NONE, 0);
    signals[SIGNAL_CLOSE] = g_signal_new("close", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
    gtk_widget_class_set_template_from_resource(widget_class, "/org/actshare/Sheet/as-result-page.ui");
    gtk_widget_class_bind_template_child(widget_class, AsResultPage, icon);
    gtk_widget_class_bind_template_child(widget_class, AsResultPage, title);
    gtk_widget_class_bind_template_child(widget_class, AsResultPage, message);
    gtk_widget_class_bind_template_child(widget_class, AsResultPage, details);
    gtk_widget_class_bind_template_child(widget_class, AsResultPage, expander);
    gtk_widget_class_bind_template_child(widget_class, AsResultPage, picture);
    gtk_widget_class_bind_template_child(widget_class, AsResultPage, open);
    gtk_widget_class_bind_template_child(widget_class, AsResultPage, show_in_folder);
    gtk_widget_class_bind_template_child(widget_class, AsResultPage, close);
    gtk_widget_class_bind_template_callback(widget_class, on_open);
    gtk_widget_class_bind_template_callback(widget_class, on_show_in_folder);
    gtk_widget_class_bind_template_callback(widget_class, on_close);
}

static void as_result_page_init(AsResultPage *self) {
    gtk_widget_init_template(GTK_WIDGET(self));
}
