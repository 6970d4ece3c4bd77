/*
 * AsProgressPage: an activity under way: its title, a progress bar (pulsing while the
 * provider says nothing of its fraction) and Cancel.
 *
 * Signal: cancel.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AS_TYPE_PROGRESS_PAGE (as_progress_page_get_type())
G_DECLARE_FINAL_TYPE(AsProgressPage, as_progress_page, AS, PROGRESS_PAGE, GtkBox)

void as_progress_page_set_title(AsProgressPage *self, const char *title);
/* `fraction` in [0, 1], or negative when unknown (the bar pulses). */
void as_progress_page_set_fraction(AsProgressPage *self, double fraction);
/* Cancel was asked for: the button says so until the activity ends. */
void as_progress_page_set_cancelling(AsProgressPage *self);
void as_progress_page_focus_cancel(AsProgressPage *self);

G_END_DECLS
