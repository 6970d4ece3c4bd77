/*
 * Canary: a test provider whose library appends a line to $ACTSHARE_CANARY_FILE when it
 * is loaded, so tests can prove that the host loads no code for activities the static
 * rules or the exclusions removed.
 */
#include "canary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((constructor)) static void canary_loaded(void) {
    const char *path = getenv("ACTSHARE_CANARY_FILE");
    if (!path) return;
    FILE *file = fopen(path, "a");
    if (!file) return;
    /* With ACTSHARE_CANARY_PID set, also which program loaded it. */
    char exe[4096] = "";
    if (getenv("ACTSHARE_CANARY_PID")) {
        ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (length > 0) exe[length] = '\0';
    }
    const char *name = strrchr(exe, '/');
    if (exe[0]) fprintf(file, "loaded in %s\n", name ? name + 1 : exe);
    else fputs("loaded\n", file);
    fclose(file);
}

int32_t canary_can_perform(const actshare_request *request) {
    (void)request;
    return 1;
}

int32_t canary_perform(const actshare_request *request, actshare_session *session) {
    (void)request;
    (void)session;
    return 0;
}
