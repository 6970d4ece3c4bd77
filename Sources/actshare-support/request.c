#include "request.h"

#include <string.h>

const char *request_option(const actshare_request *request, const char *name) {
    for (size_t i = 0; i < request->option_count; i++) {
        if (strcmp(request->options[i].name, name) == 0) return request->options[i].value;
    }
    return NULL;
}
