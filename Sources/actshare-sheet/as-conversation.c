#include "as-conversation.h"

#include "as-request.h"

#include <glib-unix.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* The longest line read from actshare: far more than any message after the first. */
#define AS_CONVERSATION_LINE_LIMIT (4u << 20)

struct _AsConversation {
    GObject parent_instance;
    int input, output;
    GString *pending;
    guint watch;
};

G_DEFINE_TYPE(AsConversation, as_conversation, G_TYPE_OBJECT)

enum { SIGNAL_ASK, SIGNAL_PROGRESS, SIGNAL_RESULT, SIGNAL_ENDED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void as_conversation_finalize(GObject *object) {
    AsConversation *self = AS_CONVERSATION(object);
    if (self->watch) g_source_remove(self->watch);
    g_string_free(self->pending, TRUE);
    G_OBJECT_CLASS(as_conversation_parent_class)->finalize(object);
}

static void as_conversation_class_init(AsConversationClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = as_conversation_finalize;
    signals[SIGNAL_ASK] = g_signal_new("ask", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE,
                                       4, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);
    signals[SIGNAL_PROGRESS] = g_signal_new("progress", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_DOUBLE);
    signals[SIGNAL_RESULT] = g_signal_new("result", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 1, G_TYPE_POINTER);
    signals[SIGNAL_ENDED] = g_signal_new("ended", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 0);
}

static void as_conversation_init(AsConversation *self) {
    self->pending = g_string_new(NULL);
}

AsConversation *as_conversation_new(int input, int output, const char *pending) {
    AsConversation *self = g_object_new(AS_TYPE_CONVERSATION, NULL);
    self->input = input;
    self->output = output;
    g_string_append(self->pending, pending ? pending : "");
    return self;
}

/* ---- Answers ------------------------------------------------------------------------ */

/* One line on the output. A closed output (actshare gone) is not an error: its end also
 * closes the input, which ends the window. */
static void write_line(AsConversation *self, json_object *message) {
    g_autofree char *line = g_strconcat(json_object_to_json_string_ext(message, JSON_C_TO_STRING_PLAIN), "\n", NULL);
    json_object_put(message);
    size_t length = strlen(line), written = 0;
    while (written < length) {
        ssize_t count = write(self->output, line + written, length - written);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        written += (size_t)count;
    }
}

/* `{"KEY": VALUE}`, the form of most answers. */
static void send(AsConversation *self, const char *key, json_object *value) {
    json_object *message = json_object_new_object();
    json_object_object_add(message, key, value);
    write_line(self, message);
}

void as_conversation_send_shown(AsConversation *self) { send(self, "shown", json_object_new_boolean(1)); }
void as_conversation_send_activity(AsConversation *self, const char *type) { send(self, "activity", json_object_new_string(type)); }
void as_conversation_send_target(AsConversation *self, const char *type, const char *target, const char *token) {
    json_object *message = json_object_new_object();
    json_object_object_add(message, "activity", json_object_new_string(type));
    json_object_object_add(message, "target", json_object_new_string(target));
    if (token) json_object_object_add(message, "activation-token", json_object_new_string(token));
    write_line(self, message);
}
void as_conversation_send_answer(AsConversation *self, const char *answer) {
    send(self, "answer", answer ? json_object_new_string(answer) : NULL);
}
void as_conversation_send_cancel(AsConversation *self) { send(self, "cancel", json_object_new_boolean(1)); }

/* ---- What actshare says ------------------------------------------------------------- */

static gboolean boolean_member(json_object *object, const char *key) {
    json_object *value;
    return json_object_object_get_ex(object, key, &value) && json_object_get_boolean(value);
}

static void handle(AsConversation *self, json_object *message) {
    json_object *value;
    if (json_object_object_get_ex(message, "ask", &value) && json_object_is_type(value, json_type_object)) {
        const char *kind = as_json_string(value, "kind");
        g_signal_emit(self, signals[SIGNAL_ASK], 0, as_json_string(value, "title"), as_json_string(value, "question"),
                      as_json_string(value, "note"), g_strcmp0(kind, "folder") == 0 ? "folder" : "text");
    } else if (json_object_object_get_ex(message, "progress", &value) && json_object_is_type(value, json_type_object)) {
        json_object *fraction;
        double number = -1;
        if (json_object_object_get_ex(value, "fraction", &fraction)
            && (json_object_is_type(fraction, json_type_double) || json_object_is_type(fraction, json_type_int))) {
            number = CLAMP(json_object_get_double(fraction), 0.0, 1.0);
        }
        g_signal_emit(self, signals[SIGNAL_PROGRESS], 0, as_json_string(value, "title"), number);
    } else if (json_object_object_get_ex(message, "result", &value) && json_object_is_type(value, json_type_object)) {
        const char *file = as_json_string(value, "file");
        AsResult result = {
            .title = (char *)as_json_string(value, "title"),
            .completed = boolean_member(value, "completed"),
            .fault = boolean_member(value, "fault"),
            .message = (char *)as_json_string(value, "message"),
            .details = (char *)as_json_string(value, "details"),
            .file = file && file[0] == '/' ? (char *)file : NULL,
        };
        g_signal_emit(self, signals[SIGNAL_RESULT], 0, &result);
    }
}

static void handle_lines(AsConversation *self) {
    char *newline;
    while ((newline = memchr(self->pending->str, '\n', self->pending->len))) {
        *newline = '\0';
        json_object *message = json_tokener_parse(self->pending->str);
        g_string_erase(self->pending, 0, newline - self->pending->str + 1);
        if (message && json_object_is_type(message, json_type_object)) handle(self, message);
        if (message) json_object_put(message);
    }
}

static gboolean on_input(gint fd, GIOCondition condition, gpointer data) {
    (void)condition;
    AsConversation *self = data;
    char chunk[65536];
    ssize_t count = read(fd, chunk, sizeof chunk);
    if (count < 0 && (errno == EINTR || errno == EAGAIN)) return G_SOURCE_CONTINUE;
    if (count <= 0 || self->pending->len + (size_t)count > AS_CONVERSATION_LINE_LIMIT) {
        self->watch = 0;
        g_signal_emit(self, signals[SIGNAL_ENDED], 0);
        return G_SOURCE_REMOVE;
    }
    g_string_append_len(self->pending, chunk, count);
    handle_lines(self);
    return G_SOURCE_CONTINUE;
}

void as_conversation_start(AsConversation *self) {
    g_return_if_fail(self->watch == 0);
    handle_lines(self);
    self->watch = g_unix_fd_add(self->input, G_IO_IN | G_IO_HUP | G_IO_ERR, on_input, self);
}
