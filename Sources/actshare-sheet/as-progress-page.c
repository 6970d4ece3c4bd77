#include "as-progress-page.h"

#include <glib/gi18n.h>

/* How often an unknown progress pulses, in milliseconds. */
#define PULSE_INTERVAL_MS 100

struct _AsProgressPage {
    GtkBox parent_instance;
    GtkLabel *title;
    GtkProgressBar *bar;
    GtkButton *cancel;
    guint pulse_timer;
};

G_DEFINE_TYPE(AsProgressPage, as_progress_page, GTK_TYPE_BOX)

enum { SIGNAL_CANCEL, N_SIGNALS };
static guint signals[N_SIGNALS];

static void stop_pulsing(AsProgressPage *self) {
    if (self->pulse_timer) g_source_remove(self->pulse_timer);
    self->pulse_timer = 0;
}

static void as_progress_page_dispose(GObject *object) {
    stop_pulsing(AS_PROGRESS_PAGE(object));
    gtk_widget_dispose_template(GTK_WIDGET(object), AS_TYPE_PROGRESS_PAGE);
    G_OBJECT_CLASS(as_progress_page_parent_class)->dispose(object);
}

static gboolean pulse(gpointer data) {
    gtk_progress_bar_pulse(AS_PROGRESS_PAGE(data)->bar);
    return G_SOURCE_CONTINUE;
}

static void on_cancel(GtkButton *button, AsProgressPage *self) {
    (void)button;
    g_signal_emit(self, signals[SIGNAL_CANCEL], 0);
}

void as_progress_page_set_title(AsProgressPage *self, const char *title) {
    g_autofree char *text = g_strdup_printf(C_("an activity under way", "%s…"), title);
    gtk_label_set_text(self->title, text);
}

void as_progress_page_set_fraction(AsProgressPage *self, double fraction) {
    if (fraction < 0) {
        if (!self->pulse_timer) self->pulse_timer = g_timeout_add(PULSE_INTERVAL_MS, pulse, self);
        return;
    }
    stop_pulsing(self);
    gtk_progress_bar_set_fraction(self->bar, CLAMP(fraction, 0.0, 1.0));
}

void as_progress_page_set_cancelling(AsProgressPage *self) {
    gtk_button_set_label(self->cancel, _("Cancelling…"));
    gtk_accessible_update_property(GTK_ACCESSIBLE(self->cancel), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Cancelling…"), -1);
    gtk_widget_set_sensitive(GTK_WIDGET(self->cancel), FALSE);
}

void as_progress_page_focus_cancel(AsProgressPage *self) {
    gtk_widget_grab_focus(GTK_WIDGET(self->cancel));
}

static void as_progress_page_class_init(AsProgressPageClass *klass) {
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->dispose = as_progress_page_dispose;
    signals[SIGNAL_CANCEL] = g_signal_new("cancel", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 0);
    gtk_widget_class_set_template_from_resource(widget_class, "/org/actshare/Sheet/as-progress-page.ui");
    gtk_widget_class_bind_template_child(widget_class, AsProgressPage, title);
    gtk_widget_class_bind_template_child(widget_class, AsProgressPage, bar);
    gtk_widget_class_bind_template_child(widget_class, AsProgressPage, cancel);
    gtk_widget_class_bind_template_callback(widget_class, on_cancel);
}

static void as_progress_page_init(AsProgressPage *self) {
    gtk_widget_init_template(GTK_WIDGET(self));
}
