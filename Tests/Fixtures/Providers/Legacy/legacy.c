/* Test fixture: a provider built for ABI 2 (include/abi2.h), which knows nothing of
 * targets. Under a host of ABI 3 it declines in words and performs as it always did. */
#include "abi2.h"

#include <stdio.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

/* Yes, unless the first item is the text "no": then it says why not. */
EXPORT int32_t legacy_can_perform(const legacy_request *request) {
    const char *text = request->item_count > 0 ? request->items[0].text : NULL;
    if (!text || strcmp(text, "no") != 0) return 1;
    if (request->abi_version >= 2 && request->struct_size >= sizeof *request && request->decline) {
        request->decline(request, "it was told no");
    }
    return 0;
}

/* Hands back what it was given: the host's ABI and the items' count. */
EXPORT int32_t legacy_perform(const legacy_request *request, legacy_session *session) {
    char line[128];
    snprintf(line, sizeof line, "host of ABI %u, %zu item(s)", (unsigned)request->abi_version, request->item_count);
    return session->return_item(session, 2, line, NULL) == 0 ? 0 : 1;
}
