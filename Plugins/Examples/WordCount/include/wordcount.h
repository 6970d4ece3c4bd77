/* The WordCount example provider: plain C functions that know nothing of actshare. */
#ifndef ACTSHARE_EXAMPLE_WORDCOUNT_H
#define ACTSHARE_EXAMPLE_WORDCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

bool wc_is_text(const char *content_type);
void wc_reset(void);
const char *wc_count(const void *data, size_t length);
bool wc_is_small(uint64_t size);
int32_t wc_check_label(const char *label);
const char *wc_describe(const char *activity_type, size_t count, const char *path, const char *uri,
                        const char *text, const char *content_type, uint64_t size, const char *label,
                        const void *request, const void *session);

#endif
