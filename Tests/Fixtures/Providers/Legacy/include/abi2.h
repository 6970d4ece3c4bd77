/*
 * The provider interface as ABI 2 laid it out (actshare/provider.h before targets),
 * frozen: legacy.c is built against it, as a provider compiled then was, so that the
 * tests run such a provider under today's host.
 */
#ifndef LEGACY_ABI2_H
#define LEGACY_ABI2_H

#include <stddef.h>
#include <stdint.h>

typedef struct legacy_item {
    int32_t kind;
    const char *path;
    const char *uri;
    const char *text;
    const char *content_type;
    uint64_t size;
    const void *data;
    size_t data_length;
} legacy_item;

typedef struct legacy_option {
    const char *name;
    const char *value;
} legacy_option;

typedef struct legacy_request {
    uint32_t abi_version;
    uint32_t struct_size;
    const char *activity_type;
    const char *subject;
    size_t item_count;
    const legacy_item *items;
    size_t option_count;
    const legacy_option *options;
    void *host_context;
    void (*decline)(const struct legacy_request *request, const char *reason);
} legacy_request;

typedef struct legacy_session legacy_session;
struct legacy_session {
    uint32_t abi_version;
    uint32_t struct_size;
    void *host_context;
    void (*progress)(legacy_session *session, double fraction);
    void (*log)(legacy_session *session, int32_t level, const char *message);
    int32_t (*return_item)(legacy_session *session, int32_t kind, const char *value, const char *content_type);
    const char *(*option)(legacy_session *session, const char *name);
    void (*set_error)(legacy_session *session, const char *message);
    int32_t (*is_cancelled)(legacy_session *session);
};

#endif
