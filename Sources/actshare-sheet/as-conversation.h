/*
 * AsConversation: the window's side of the conversation with actshare, JSON lines on
 * standard input and output (docs/DESKTOP.md, "The sheet's conversation"). It reads what
 * actshare says after the first line and emits it as typed signals; the window answers
 * through its methods. Lines it does not know (a newer actshare's) are ignored.
 *
 * Signals:
 *   devices (GPtrArray of AsDevice *)        the paired devices, reachable first, then
 *                                            LocalSend devices
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

/* How a device of the row is reached: what choosing it performs. */
typedef enum {
    AS_DEVICE_ACTSHARE,  /* a paired actshare device: Hand Off (and its clipboard) */
    AS_DEVICE_LOCALSEND, /* a LocalSend device: Hand Off by its name */
    AS_DEVICE_KDECONNECT /* a device paired with KDE Connect: Send with KDE Connect */
} AsDeviceKind;

typedef struct {
    char *id;
    char *name;
    AsDeviceKind kind;
    gboolean phone; /* a phone or tablet, as it says (its icon) */
    gboolean reachable;
} AsDevice;

/* The kind's name in the conversation ("actshare", "localsend", "kdeconnect"). */
const char *as_device_kind_name(AsDeviceKind kind);
AsDevice *as_device_copy(const AsDevice *device);
void as_device_free(gpointer device);

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
/* `{"device": ID, "kind": KIND}`, with `"clipboard": true` for its clipboard rather than
 * a hand-off. */
void as_conversation_send_device(AsConversation *self, const char *id, AsDeviceKind kind, gboolean clipboard);
/* `answer` NULL: the question was cancelled. */
void as_conversation_send_answer(AsConversation *self, const char *answer);
void as_conversation_send_cancel(AsConversation *self);

G_END_DECLS
