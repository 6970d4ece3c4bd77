/*
 * actshare/provider.h — the C interface between the actshare host and its providers.
 *
 * A provider is a shared library plus a YAML manifest (schema actshare/provider@1).
 * The manifest names the library's hooks; the host calls them through libffi.
 * Only plain C values cross this interface: no Swift, C++ or allocator ownership.
 *
 * Standard hook signatures (a hook given in the manifest as a bare symbol):
 *
 *   int32_t can_perform(const actshare_request *request);
 *       1: the activity can perform on the request's items; 0: it cannot (say why with
 *       actshare_decline, from ABI 2).
 *   int32_t prepare(actshare_request *request, actshare_session *session);
 *   int32_t perform(const actshare_request *request, actshare_session *session);
 *       ACTSHARE_STATUS_DONE (0), ACTSHARE_STATUS_FAILED, ACTSHARE_STATUS_CANCELLED or
 *       ACTSHARE_STATUS_BAD_INPUT.
 *
 * Everything the host passes in lives until the hook returns; copy what you keep.
 * Strings are NUL-terminated UTF-8. Hooks may be called from any thread, one at a time.
 *
 * See docs/PLUGINS.md for the manifest, declarative binding and a complete example.
 */
#ifndef ACTSHARE_PROVIDER_H
#define ACTSHARE_PROVIDER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The version of this interface; `request->abi_version` carries the host's.
 *   1  the first.
 *   2  actshare_request gains host_context and decline: can_perform may say why it
 *      answers 0 (actshare_decline). A provider built for 1 runs unchanged under a host
 *      of 2; one built for 2 runs under a host of 1 if it calls decline only through
 *      actshare_decline, which checks.
 */
#define ACTSHARE_ABI_VERSION 2

/** Marks a hook for export from a library built with -fvisibility=hidden. */
#define ACTSHARE_EXPORT __attribute__((visibility("default")))

/** What a perform or prepare hook returns. */
enum {
    ACTSHARE_STATUS_DONE = 0,      /**< completed */
    ACTSHARE_STATUS_FAILED = 1,    /**< failed; say why with session->set_error */
    ACTSHARE_STATUS_CANCELLED = 2, /**< the user cancelled: a normal outcome */
    ACTSHARE_STATUS_BAD_INPUT = 3, /**< the items or options cannot be used as given (a
                                        malformed address, an unreadable file): nothing
                                        was done; say which with set_error (exit 2) */
};

/** The kind of an item. */
typedef enum actshare_item_kind {
    ACTSHARE_ITEM_FILE = 0, /**< a local file or directory: `path` and `uri` are set */
    ACTSHARE_ITEM_URL = 1,  /**< a URL: `uri` is set */
    ACTSHARE_ITEM_TEXT = 2, /**< UTF-8 text: `text` is set, and `data`/`data_length` */
    ACTSHARE_ITEM_DATA = 3, /**< bytes, such as standard input: `data`/`data_length` */
} actshare_item_kind;

/** Log levels for session->log. */
typedef enum actshare_log_level {
    ACTSHARE_LOG_DEBUG = 0,
    ACTSHARE_LOG_INFO = 1,
    ACTSHARE_LOG_WARNING = 2,
    ACTSHARE_LOG_ERROR = 3,
} actshare_log_level;

/** One thing the user is sharing. Unset fields are NULL (or 0). */
typedef struct actshare_item {
    int32_t kind;             /**< an actshare_item_kind */
    const char *path;         /**< file items: the absolute path */
    const char *uri;          /**< file items: a file:// URI; URL items: the URL */
    const char *text;         /**< text items: the text */
    const char *content_type; /**< a freedesktop MIME type, e.g. "text/x-python" */
    uint64_t size;            /**< bytes: file size, text or data length */
    const void *data;         /**< text and data items: the bytes (file items: NULL) */
    size_t data_length;
} actshare_item;

/** One activity option with its value, as the user or config supplied it. */
typedef struct actshare_option {
    const char *name;
    const char *value;
} actshare_option;

/** What the host asks a provider to do: one activity on some items. */
typedef struct actshare_request actshare_request;
struct actshare_request {
    uint32_t abi_version;        /**< ACTSHARE_ABI_VERSION of the host */
    uint32_t struct_size;        /**< sizeof(actshare_request) of the host */
    const char *activity_type;   /**< reverse-DNS type from the manifest */
    const char *subject;         /**< --subject, or NULL */
    size_t item_count;
    const actshare_item *items;
    size_t option_count;         /**< every declared option that has a value */
    const actshare_option *options;
    /* ABI 2 and later (check with actshare_decline, or abi_version and struct_size). */
    void *host_context;          /**< the host's; do not touch */
    /**
     * Says why can_perform answers 0, in one sentence for a person, such as "No device is
     * paired: pair one with actshare handoff pair". actshare shows it where the activity
     * would have been (`perform`, `list --explain`, the share sheet). Only during a
     * can_perform call; the last one said counts. Call it through actshare_decline.
     */
    void (*decline)(const struct actshare_request *request, const char *reason);
};

/** Says why can_perform answers 0 (see actshare_request.decline), if the host can hear it:
    a host of ABI 1 cannot, and this does nothing there. */
static inline void actshare_decline(const actshare_request *request, const char *reason) {
    if (request && request->abi_version >= 2
        && request->struct_size >= offsetof(actshare_request, decline) + sizeof request->decline && request->decline) {
        request->decline(request, reason);
    }
}

typedef struct actshare_session actshare_session;

/**
 * Callbacks into the host during prepare and perform.
 * Call them as `session->progress(session, 0.5)`; they are never NULL.
 */
struct actshare_session {
    uint32_t abi_version;
    uint32_t struct_size;
    void *host_context; /**< the host's; do not touch */

    /** Reports progress from 0.0 to 1.0. */
    void (*progress)(actshare_session *session, double fraction);
    /** Writes a line to the host's log (warnings and errors reach the user's terminal). */
    void (*log)(actshare_session *session, int32_t level, const char *message);
    /**
     * Hands an item back to the host as a result of the activity (a file written,
     * a link made, text produced). `value` is a path, URL or text by `kind`;
     * `content_type` may be NULL to let the host detect it. Returns 0 on success.
     */
    int32_t (*return_item)(actshare_session *session, int32_t kind, const char *value,
                           const char *content_type);
    /** The value of a declared option, or NULL. Valid until the hook returns. */
    const char *(*option)(actshare_session *session, const char *name);
    /** Sets the message shown when the hook returns ACTSHARE_STATUS_FAILED. */
    void (*set_error)(actshare_session *session, const char *message);
    /** Non-zero once the user has asked to cancel: stop, clean up, return CANCELLED. */
    int32_t (*is_cancelled)(actshare_session *session);
};

typedef int32_t (*actshare_can_perform_fn)(const actshare_request *request);
typedef int32_t (*actshare_prepare_fn)(actshare_request *request, actshare_session *session);
typedef int32_t (*actshare_perform_fn)(const actshare_request *request,
                                       actshare_session *session);

#ifdef __cplusplus
}
#endif

#endif /* ACTSHARE_PROVIDER_H */
