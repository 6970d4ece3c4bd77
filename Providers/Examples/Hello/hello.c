/*
 * Hello: an example provider in C using the standard hook signatures and the session.
 *
 * "Say Hello" greets each item and hands the greetings back as text items, or as
 * files when the output-dir option is set. It refuses empty items in can-perform,
 * checks its options in prepare, reports progress and logs. "Sign With Name" needs a
 * required option, which the host asks for when it is missing.
 */
#include "hello.h"

#include <stdio.h>
#include <string.h>

/* Only this file's hooks are exported (built with -fvisibility=hidden). */
static const char *item_name(const actshare_item *item) {
    if (item->path) {
        const char *slash = strrchr(item->path, '/');
        return slash ? slash + 1 : item->path;
    }
    if (item->text) return item->text;
    return item->uri ? item->uri : "?";
}

int32_t hello_can_perform(const actshare_request *request) {
    for (size_t i = 0; i < request->item_count; i++) {
        if (request->items[i].size == 0) return 0; /* nothing to greet */
    }
    return 1;
}

int32_t hello_prepare(actshare_request *request, actshare_session *session) {
    (void)request;
    const char *greeting = session->option(session, "greeting");
    if (greeting && greeting[0] == '\0') {
        session->set_error(session, "the greeting must not be empty");
        return ACTSHARE_STATUS_FAILED;
    }
    return ACTSHARE_STATUS_DONE;
}

int32_t hello_greet(const actshare_request *request, actshare_session *session) {
    const char *greeting = session->option(session, "greeting");
    const char *output_dir = session->option(session, "output-dir");
    if (!greeting) greeting = "Hello";
    if (strcmp(greeting, "fail") == 0) {
        session->set_error(session, "asked to fail");
        return ACTSHARE_STATUS_FAILED;
    }
    if (strcmp(greeting, "cancel") == 0) return ACTSHARE_STATUS_CANCELLED;

    for (size_t i = 0; i < request->item_count; i++) {
        if (session->is_cancelled(session)) return ACTSHARE_STATUS_CANCELLED;
        char line[1024];
        snprintf(line, sizeof line, "%s%s%s, %s!", request->subject ? request->subject : "",
                 request->subject ? ": " : "", greeting, item_name(&request->items[i]));
        if (output_dir) {
            char path[4096];
            snprintf(path, sizeof path, "%s/hello-%zu.txt", output_dir, i + 1);
            FILE *file = fopen(path, "w");
            if (!file) {
                char message[4200];
                snprintf(message, sizeof message, "cannot write %s", path);
                session->set_error(session, message);
                return ACTSHARE_STATUS_FAILED;
            }
            fprintf(file, "%s\n", line);
            fclose(file);
            session->return_item(session, ACTSHARE_ITEM_FILE, path, "text/plain");
        } else {
            session->return_item(session, ACTSHARE_ITEM_TEXT, line, NULL);
        }
        session->log(session, ACTSHARE_LOG_DEBUG, line);
        session->progress(session, (double)(i + 1) / (double)request->item_count);
    }
    return ACTSHARE_STATUS_DONE;
}

int32_t hello_sign(const actshare_request *request, actshare_session *session) {
    const char *name = session->option(session, "name");
    char line[512];
    snprintf(line, sizeof line, "%zu item(s), signed by %s", request->item_count, name ? name : "nobody");
    session->return_item(session, ACTSHARE_ITEM_TEXT, line, "text/plain");
    return ACTSHARE_STATUS_DONE;
}
