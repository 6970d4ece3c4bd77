/* Wayland: wl-copy (wl-clipboard) offers one type per copy, so the most useful one is chosen. */
#include "io.h"
#include "targets.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int copy_wayland(const targets *t, unsigned selections, actshare_session *session) {
    /* A PNG pastes into every application; other image formats lose to the file's URI. */
    const char *image = t->image_type && strcmp(t->image_type, "image/png") == 0 ? t->image_type : NULL;
    const char *preferred[] = {image, "text/uri-list", "text/plain;charset=utf-8"};
    const target *best = NULL;
    for (size_t p = 0; p < 3 && !best; p++) {
        for (size_t i = 0; preferred[p] && i < t->count; i++) {
            if (strcmp(t->list[i].name, preferred[p]) == 0) best = &t->list[i];
        }
    }
    if (!best) best = &t->list[0];
    buffer file = {0};
    const buffer *data = &best->data;
    if (best->is_file) {
        if (read_file(best->data.bytes, &file, CLIPBOARD_FILE_LIMIT) != 0) {
            char message[4200];
            snprintf(message, sizeof message, "Wayland clipboard: cannot read %s: %s", best->data.bytes,
                     errno == EFBIG ? "larger than 256 MiB, the most Copy puts on the clipboard" : io_error(errno));
            session->set_error(session, message);
            free(file.bytes);
            return -1;
        }
        data = &file;
    }
    int input[2];
    if (pipe2(input, O_CLOEXEC) != 0) {
        session->set_error(session, "Wayland clipboard: cannot make a pipe");
        free(file.bytes);
        return -1;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, input[0], 0);
    /* wl-copy stays in the background to serve: it must not hold actshare's output open. */
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    char *argv[] = {"wl-copy", "--type", (char *)best->name, selections == SELECTION_PRIMARY ? "--primary" : NULL, NULL};
    pid_t pid;
    int spawned = posix_spawnp(&pid, "wl-copy", &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(input[0]);
    if (spawned != 0) {
        close(input[1]);
        free(file.bytes);
        session->set_error(session, "Wayland clipboard: wl-copy (wl-clipboard) is not installed");
        return -1;
    }
    write_all(input[1], data->bytes, data->length); /* wl-copy's exit status says if it failed */
    close(input[1]);
    free(file.bytes);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {} /* wl-copy returns once the compositor has the selection */
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        session->set_error(session, "Wayland clipboard: wl-copy failed");
        return -1;
    }
    return 0;
}
