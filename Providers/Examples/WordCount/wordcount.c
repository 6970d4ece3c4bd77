/*
 * WordCount: an example provider made only of plain C functions, bound to hooks by
 * the manifest's `args:` and `returns:` (declarative binding). It includes nothing
 * from actshare.
 */
#include "wordcount.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static char result[8192];
static unsigned long calls;

bool wc_is_text(const char *content_type) {
    return content_type && strncmp(content_type, "text/", 5) == 0;
}

void wc_reset(void) { calls = 0; }

const char *wc_count(const void *data, size_t length) {
    const unsigned char *bytes = data;
    unsigned long words = 0, lines = 0;
    int in_word = 0;
    for (size_t i = 0; i < length; i++) {
        if (bytes[i] == '\n') lines++;
        if (isspace(bytes[i])) {
            in_word = 0;
        } else if (!in_word) {
            in_word = 1;
            words++;
        }
    }
    calls++;
    snprintf(result, sizeof result, "%lu words, %lu lines, %zu bytes (item %lu)", words, lines, length, calls);
    return result;
}

bool wc_is_small(uint64_t size) { return size < 1024 * 1024; }

int32_t wc_check_label(const char *label) {
    return label && strcmp(label, "bad") == 0 ? 1 : 0;
}

const char *wc_describe(const char *activity_type, size_t count, const char *path, const char *uri,
                        const char *text, const char *content_type, uint64_t size, const char *label,
                        const void *request, const void *session) {
    snprintf(result, sizeof result,
             "type=%s count=%zu path=%s uri=%s text=%s content-type=%s size=%llu label=%s request=%s session=%s",
             activity_type, count, path ? path : "(null)", uri ? uri : "(null)", text ? text : "(null)",
             content_type, (unsigned long long)size, label ? label : "(null)", request ? "yes" : "no",
             session ? "yes" : "no");
    return result;
}
