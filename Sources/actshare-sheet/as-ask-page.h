/*
 * AsAskPage: asks for an option's value (Mail's recipient, Print to PDF's folder). A
 * refused answer stays in the field, with the reason below it. A folder is chosen with
 * the desktop's folder chooser, or typed.
 *
 * Signal: answered (text, or NULL when the question was cancelled).
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AS_TYPE_ASK_PAGE (as_ask_page_get_type())
G_DECLARE_FINAL_TYPE(AsAskPage, as_ask_page, AS, ASK_PAGE, GtkBox)

/* Shows `question` for the activity `title`; `note` says why the last answer was
 * refused (then the answer stays to be mended); `kind` is "text" or "folder". */
void as_ask_page_ask(AsAskPage *self, const char *title, const char *question, const char *note, const char *kind);

G_END_DECLS
