/* OSC 52: the terminal sets its clipboard from an escape sequence. Text only. */
#include "targets.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Most text a terminal takes in one OSC 52 sequence (xterm's and tmux's limits). */
#define OSC52_MAX_TEXT 74994

int copy_osc52(const targets *t, unsigned selections, actshare_session *session) {
    const buffer *text = &t->text;
    if (text->length == 0) {
        session->set_error(session, "OSC 52 carries text only, and these items have none");
        return -1;
    }
    if (text->length > OSC52_MAX_TEXT) {
        char message[200];
        snprintf(message, sizeof message, "OSC 52: %zu bytes of text is more than a terminal takes (%d)", text->length, OSC52_MAX_TEXT);
        session->set_error(session, message);
        return -1;
    }
    int tty = open("/dev/tty", O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (tty < 0) {
        session->set_error(session, "OSC 52: there is no terminal");
        return -1;
    }
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    buffer sequence = {0};
    buffer_append_string(&sequence, "\033]52;");
    buffer_append_string(&sequence, selections == (SELECTION_CLIPBOARD | SELECTION_PRIMARY) ? "cp" : selections == SELECTION_PRIMARY ? "p" : "c");
    buffer_append_string(&sequence, ";");
    const unsigned char *s = (const unsigned char *)text->bytes;
    for (size_t i = 0; i < text->length; i += 3) {
        unsigned value = (unsigned)s[i] << 16 | (i + 1 < text->length ? (unsigned)s[i + 1] << 8 : 0) | (i + 2 < text->length ? s[i + 2] : 0);
        char quad[4] = {alphabet[(value >> 18) & 63], alphabet[(value >> 12) & 63],
                        i + 1 < text->length ? alphabet[(value >> 6) & 63] : '=', i + 2 < text->length ? alphabet[value & 63] : '='};
        buffer_append(&sequence, quad, 4);
    }
    buffer_append_string(&sequence, "\a");
    ssize_t written = write(tty, sequence.bytes, sequence.length);
    close(tty);
    free(sequence.bytes);
    if (written != (ssize_t)sequence.length) {
        session->set_error(session, "OSC 52: cannot write to the terminal");
        return -1;
    }
    return 0;
}
