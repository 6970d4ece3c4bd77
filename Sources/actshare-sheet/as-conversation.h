/*
 * AsConversation: the window's side of the conversation with actshare, JSON lines on
 * standard input and output (docs/DESKTOP.md, "The sheet's conversation"). It reads what
 * actshare says after the first line and emits it as typed signals; the window answers
 * through its methods. Lines it does not know (a newer actshare's) are ignored.
 *
 * Signals:
 *   ask (title, question, note, kind)        an option's value is needed; note: why the
 *                                            last answer was refused (NULL: first ask);
 *                                            kind: "text" or "folder"
 *   progress (title, fraction)               fraction in [0, 1], or -1 when unknown
 *   result (AsResult *)                      how it ended
 *   ended ()                                 actshare closed the conversation
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct {
    char *title;     /* the activity's; NULL if none was chosen */
    gboolean completed;
    gboolean fault;  /* the provider crashed, hung or broke (not a failure it reported) */
    char *message;   /* one sentence for a person, or NULL */
    char *details;   /* the technical line, for "Details", or NULL */
    char *file;      /* a file made, to open or show, or NULL */
} AsResult;

#define AS_TYPE_CONVERSATION (as_conversation_get_type())
G_DECLARE_FINAL_TYPE(AsConversation, as_conversation, AS, CONVERSATION, GObject)

/* Reads lines from `input` (what follows `pending`, the rest of the first read) and
 * answers on `output`. */
AsConversation *as_conversation_new(int input, int output, const char *pending);
/* Starts reading: call once the window listens to the signals. */
void as_conversation_start(AsConversation *self);

void as_conversation_send_shown(AsConversation *self);
void as_conversation_send_activity(AsConversation *self, const char *type);
/* `{"activity": TYPE, "target": ID}`: one of the activity's targets was chosen; with
 * `"activation-token"` when the desktop gave one for starting it (`token` not NULL). */
void as_conversation_send_target(AsConversation *self, const char *type, const char *target, const char *token);
/* `answer` NULL: the question was cancelled. */
void as_conversation_send_answer(AsConversation *self, const char *answer);
void as_conversation_send_cancel(AsConversation *self);

G_END_DECLS
