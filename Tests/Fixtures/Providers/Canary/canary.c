/*
 * Canary: a test provider whose library appends a line to $ACTSHARE_CANARY_FILE when it
 * is loaded, so tests can prove that the host loads no code for activities the static
 * rules or the exclusions removed.
 */
#include "canary.h"

#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor)) static void canary_loaded(void) {
    const char *path = getenv("ACTSHARE_CANARY_FILE");
    if (!path) return;
    FILE *file = fopen(path, "a");
    if (!file) return;
    fputs("loaded\n", file);
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
