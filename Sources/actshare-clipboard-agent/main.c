/* actshare-clipboard-agent [--watch] [--primary] [--max BYTES]: see agent.h. Started by the handoff
 * daemon with a socket on standard input and output. On a Wayland compositor that offers
 * data-control (sway, KDE, Hyprland…) it watches the Wayland clipboard; elsewhere (X11,
 * or GNOME, whose XWayland clipboard follows the Wayland one) the X display's. */
#include "agent.h"

#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    int watch = 0, primary = 0;
    uint64_t limit = 64u << 20;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--watch") == 0) {
            watch = 1;
        } else if (strcmp(argv[i], "--primary") == 0) {
            primary = 1;
        } else if (strcmp(argv[i], "--max") == 0 && i + 1 < argc) {
            limit = strtoull(argv[++i], NULL, 10);
        } else {
            fprintf(stderr, "usage: actshare-clipboard-agent [--watch] [--primary] [--max BYTES] (started by actshare's daemon)\n");
            return 2;
        }
    }
    signal(SIGPIPE, SIG_IGN);
    /* An image and its pieces reuse their buffers rather than map and zero new ones each
     * time; the loops give them back when idle (agent_idle). */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
    const int fd = 0; /* the daemon's socket, standard input and output */
    const char *wayland_display = getenv("WAYLAND_DISPLAY"), *x_display = getenv("DISPLAY");
    if (wayland_display && *wayland_display) {
        int status = wayland_run(fd, watch, primary, limit);
        if (status != AGENT_NO_DATA_CONTROL) return status;
        if (!x_display || !*x_display) {
            fprintf(stderr, "actshare-clipboard-agent: the Wayland compositor at %s offers no data-control and there is no X "
                            "display: the clipboard cannot be read here\n",
                    wayland_display);
            return 1;
        }
    }
    return x11_run(fd, watch, primary, limit);
}
