/*
 * AsResultPage: how the share ended, in one sentence for a person, with the technical
 * line behind "Details"; for a file made, Open and Show in Folder.
 *
 * Signals: open, show-in-folder, close.
 */
#pragma once

#include "as-conversation.h"

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AS_TYPE_RESULT_PAGE (as_result_page_get_type())
G_DECLARE_FINAL_TYPE(AsResultPage, as_result_page, AS, RESULT_PAGE, GtkBox)

void as_result_page_show(AsResultPage *self, const AsResult *result);
/* The window's title for the result shown. */
const char *as_result_page_get_window_title(AsResultPage *self);

G_END_DECLS
