/*
 * Copy: puts the items on the clipboard with every target a desktop expects, so one
 * copy pastes into a file manager, a browser and a text field alike.
 *
 * targets.c builds the targets; the back ends offer them: x11.c natively through XCB
 * (every target), wayland.c through wl-copy (the most useful one), osc52.c through the
 * terminal (text). See docs/CLIPBOARD.md.
 */
#include "clipboard.h"
#include "targets.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int has_program(const char *name) {
    const char *path = getenv("PATH");
    if (!path) return 0;
    char candidate[4096];
    for (const char *start = path; *start;) {
        const char *end = strchr(start, ':');
        size_t length = end ? (size_t)(end - start) : strlen(start);
        snprintf(candidate, sizeof candidate, "%.*s/%s", (int)length, start, name);
        if (access(candidate, X_OK) == 0) return 1;
        if (!end) break;
        start = end + 1;
    }
    return 0;
}

/* `auto`: Wayland with wl-copy, else X11, else a terminal; NULL with the error set if none. */
static const char *detect_backend(actshare_session *session) {
    const char *wayland = getenv("WAYLAND_DISPLAY");
    const char *display = getenv("DISPLAY");
    if (wayland && *wayland && has_program("wl-copy")) return "wayland";
    if (display && *display) return "x11";
    int tty = open("/dev/tty", O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (tty >= 0) {
        close(tty);
        return "osc52";
    }
    session->set_error(session, "no clipboard to copy to: no X display (DISPLAY is not set), no Wayland "
                                "compositor with wl-copy (WAYLAND_DISPLAY), and no terminal for OSC 52");
    return NULL;
}

int32_t clipboard_copy(const actshare_request *request, actshare_session *session) {
    const char *backend = session->option(session, "backend");
    const char *selection = session->option(session, "selection");
    const char *lifetime_text = session->option(session, "lifetime");
    unsigned selections = !selection || strcmp(selection, "clipboard") == 0 ? SELECTION_CLIPBOARD
                         : strcmp(selection, "primary") == 0             ? SELECTION_PRIMARY
                                                                         : SELECTION_CLIPBOARD | SELECTION_PRIMARY;
    long lifetime = lifetime_text ? strtol(lifetime_text, NULL, 10) : 0;

    targets t;
    targets_build(request, &t);
    int result = -1, empty = t.count == 0;
    if (empty) {
        /* Empty text, or nothing that can go on a clipboard: the input's fault (exit 2). */
        session->set_error(session, "nothing to copy (the text is empty)");
    } else {
        if (!backend || strcmp(backend, "auto") == 0) backend = detect_backend(session);
        if (!backend) result = -1;
        else if (strcmp(backend, "x11") == 0) result = copy_x11(&t, selections, lifetime > 0 ? (unsigned)lifetime : 0, session);
        else if (strcmp(backend, "wayland") == 0) result = copy_wayland(&t, selections, session);
        else result = copy_osc52(&t, selections, session);
    }
    targets_free(&t);
    return result == 0 ? ACTSHARE_STATUS_DONE : empty ? ACTSHARE_STATUS_BAD_INPUT : ACTSHARE_STATUS_FAILED;
}
