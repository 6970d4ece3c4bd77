#include "as-ask-page.h"

#include <glib/gi18n.h>

struct _AsAskPage {
    GtkBox parent_instance;
    GtkLabel *title, *question, *note;
    GtkEntry *entry;
    GtkWidget *choose_folder;
    GtkFileChooserNative *chooser;
};

G_DEFINE_TYPE(AsAskPage, as_ask_page, GTK_TYPE_BOX)

enum { SIGNAL_ANSWERED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void as_ask_page_dispose(GObject *object) {
    AsAskPage *self = AS_ASK_PAGE(object);
    g_clear_object(&self->chooser);
    gtk_widget_dispose_template(GTK_WIDGET(object), AS_TYPE_ASK_PAGE);
    G_OBJECT_CLASS(as_ask_page_parent_class)->dispose(object);
}

static void on_continue(GtkWidget *widget, AsAskPage *self) {
    (void)widget;
    g_signal_emit(self, signals[SIGNAL_ANSWERED], 0, gtk_editable_get_text(GTK_EDITABLE(self->entry)));
}

static void on_cancel(GtkWidget *widget, AsAskPage *self) {
    (void)widget;
    g_signal_emit(self, signals[SIGNAL_ANSWERED], 0, NULL);
}

static void on_folder_chosen(GtkNativeDialog *dialog, int response, AsAskPage *self) {
    if (response == GTK_RESPONSE_ACCEPT) {
        g_autoptr(GFile) folder = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(dialog));
        g_autofree char *path = folder ? g_file_get_path(folder) : NULL;
        if (path) gtk_editable_set_text(GTK_EDITABLE(self->entry), path);
    }
    gtk_widget_grab_focus(GTK_WIDGET(self->entry));
}

static void on_choose_folder(GtkButton *button, AsAskPage *self) {
    (void)button;
    if (!self->chooser) {
        GtkWindow *window = GTK_WINDOW(gtk_widget_get_root(GTK_WIDGET(self)));
        self->chooser = gtk_file_chooser_native_new(_("Choose a Folder"), window, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                                    _("_Select"), _("_Cancel"));
        gtk_native_dialog_set_modal(GTK_NATIVE_DIALOG(self->chooser), TRUE);
        g_signal_connect(self->chooser, "response", G_CALLBACK(on_folder_chosen), self);
    }
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(self->chooser));
}

void as_ask_page_ask(AsAskPage *self, const char *title, const char *question, const char *note, const char *kind) {
    gtk_label_set_text(self->title, title ? title : _("Share"));
    gtk_label_set_text(self->question, question ? question : "");
    gtk_label_set_text(self->note, note ? note : "");
    gtk_widget_set_visible(GTK_WIDGET(self->note), note != NULL);
    gtk_widget_set_visible(self->choose_folder, g_strcmp0(kind, "folder") == 0);
    /* The entry is named by the question, and a refusal described to a screen reader. */
    gtk_accessible_update_property(GTK_ACCESSIBLE(self->entry), GTK_ACCESSIBLE_PROPERTY_LABEL, question ? question : "",
                                   GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, note ? note : "", -1);
    if (note) {
        /* Refused: the answer stays, to be mended rather than typed again. */
        gtk_widget_add_css_class(GTK_WIDGET(self->entry), "error");
        gtk_accessible_update_state(GTK_ACCESSIBLE(self->entry), GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_TRUE, -1);
    } else {
        gtk_editable_set_text(GTK_EDITABLE(self->entry), "");
        gtk_widget_remove_css_class(GTK_WIDGET(self->entry), "error");
        gtk_accessible_reset_state(GTK_ACCESSIBLE(self->entry), GTK_ACCESSIBLE_STATE_INVALID);
    }
    gtk_widget_set_sensitive(GTK_WIDGET(self), TRUE);
    gtk_widget_grab_focus(GTK_WIDGET(self->entry));
    gtk_editable_set_position(GTK_EDITABLE(self->entry), -1);
}

static void as_ask_page_class_init(AsAskPageClass *klass) {
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->dispose = as_ask_page_dispose;
    signals[SIGNAL_ANSWERED] = g_signal_new("answered", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 1, G_TYPE_STRING);
    gtk_widget_class_set_template_from_resource(widget_class, "/org/actshare/Sheet/as-ask-page.ui");
    gtk_widget_class_bind_template_child(widget_class, AsAskPage, title);
    gtk_widget_class_bind_template_child(widget_class, AsAskPage, question);
    gtk_widget_class_bind_template_child(widget_class, AsAskPage, note);
    gtk_widget_class_bind_template_child(widget_class, AsAskPage, entry);
    gtk_widget_class_bind_template_child(widget_class, AsAskPage, choose_folder);
    gtk_widget_class_bind_template_callback(widget_class, on_continue);
    gtk_widget_class_bind_template_callback(widget_class, on_cancel);
    gtk_widget_class_bind_template_callback(widget_class, on_choose_folder);
}

static void as_ask_page_init(AsAskPage *self) {
    gtk_widget_init_template(GTK_WIDGET(self));
}
