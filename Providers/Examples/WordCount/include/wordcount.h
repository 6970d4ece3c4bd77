/* The WordCount example provider: plain C functions that know nothing of actshare. */
#ifndef ACTSHARE_EXAMPLE_WORDCOUNT_H
#define ACTSHARE_EXAMPLE_WORDCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Built with -fvisibility=hidden: only what is marked here is exported. */
#define WC_API __attribute__((visibility("default")))

WC_API bool wc_is_text(const char *content_type);
WC_API void wc_reset(void);
WC_API const char *wc_count(const void *data, size_t length);
WC_API bool wc_is_small(uint64_t size);
WC_API int32_t wc_check_label(const char *label);
WC_API const char *wc_describe(const char *activity_type, size_t count, const char *path, const char *uri,
                               const char *text, const char *content_type, uint64_t size, const char *label,
                               const void *request, const void *session);

#endif
