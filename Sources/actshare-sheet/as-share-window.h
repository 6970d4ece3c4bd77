/*
 * AsShareWindow: the share sheet's window. It shows the pages (choose, ask, progress,
 * result) as the conversation with actshare goes, and answers for the person: it decides
 * nothing of the share itself.
 *
 * Keys: typing anywhere searches; arrows move among the activities from the first; Enter
 * performs the selected one (while searching: the first match); Esc clears a search first,
 * then cancels (the question, the running activity, the share); Space while searching is
 * part of the search.
 */
#pragma once

#include "as-conversation.h"
#include "as-request.h"

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AS_TYPE_SHARE_WINDOW (as_share_window_get_type())
G_DECLARE_FINAL_TYPE(AsShareWindow, as_share_window, AS, SHARE_WINDOW, GtkWindow)

AsShareWindow *as_share_window_new(AsConversation *conversation, const AsRequest *request);
/* Shows the window and runs until it closes: 0 once something was chosen, 1 if the person
 * closed it before. */
int as_share_window_run(AsShareWindow *self);

G_END_DECLS
