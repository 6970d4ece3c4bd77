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
 *       actshare_decline, from ABI 2). Answering 1, it may offer targets for it: the
 *       devices, people or apps the activity can go to (actshare_add_target, from ABI 3).
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
 *   3  actshare_request gains add_target and target: can_perform may offer targets
 *      (actshare_add_target), and perform learns the one the user chose
 *      (actshare_request_target). Providers built for 1 or 2 run unchanged; one built
 *      for 3 runs under an older host if it uses these two functions, which check.
 */
#define ACTSHARE_ABI_VERSION 3

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

/** What a target is; the share sheet shows devices and people in one row, apps in another. */
typedef enum actshare_target_kind {
    ACTSHARE_TARGET_DEVICE = 0, /**< a machine or phone: "beta", "Pixel 8" */
    ACTSHARE_TARGET_PERSON = 1, /**< someone to send to */
    ACTSHARE_TARGET_APP = 2,    /**< an application that opens the items */
    ACTSHARE_TARGET_PLACE = 3,  /**< a folder, a server, an album */
} actshare_target_kind;

/** The most targets one activity offers; actshare keeps the first ones and warns. */
#define ACTSHARE_MAX_TARGETS 64
/** The longest target id, in bytes. */
#define ACTSHARE_MAX_TARGET_ID 128

/**
 * One place an activity can go to (ABI 3), offered by can_perform with
 * actshare_add_target: the user picks it in the share sheet, or a script passes
 * `--target ID`, and perform finds its id in actshare_request_target. Strings are
 * copied by actshare before actshare_add_target returns.
 */
typedef struct actshare_target {
    uint32_t struct_size;  /**< sizeof(actshare_target) */
    int32_t kind;          /**< an actshare_target_kind */
    const char *id;        /**< stable across runs, printable, at most ACTSHARE_MAX_TARGET_ID
                                bytes, unique in the activity: what perform is given */
    const char *title;     /**< what the user reads: "beta", "GNU Image Manipulation Program" */
    const char *subtitle;  /**< optional (NULL): "not reachable now", "KDE Connect" */
    const char *image;     /**< optional (NULL): a freedesktop icon name, or an absolute path */
} actshare_target;

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
     * Said while answering 1, it is a note that only `--explain` shows (where the
     * activity would go, and why); actshare sets ACTSHARE_TRACE=1 in its environment
     * while it explains, so that a provider says it only then.
     */
    void (*decline)(const struct actshare_request *request, const char *reason);
    /* ABI 3 and later (check with actshare_add_target and actshare_request_target). */
    /**
     * Offers a target for this activity, during a can_perform call that answers 1, in
     * the order the sheet should show them. 0 when it reached actshare; -1 for one past
     * the ACTSHARE_MAX_TARGETS a call may offer, or without an id or a title. actshare
     * checks each target it is given and leaves out, with a warning, one whose id is
     * too long, not printable or offered already. Call it through actshare_add_target.
     */
    int32_t (*add_target)(const struct actshare_request *request, const actshare_target *target);
    /** During prepare and perform: the id of the target the user chose, or NULL when they
        chose the activity itself. Read it through actshare_request_target. */
    const char *target;
};

/** Says why can_perform answers 0 (see actshare_request.decline), if the host can hear it:
    a host of ABI 1 cannot, and this does nothing there. */
static inline void actshare_decline(const actshare_request *request, const char *reason) {
    if (request && request->abi_version >= 2
        && request->struct_size >= offsetof(actshare_request, decline) + sizeof request->decline && request->decline) {
        request->decline(request, reason);
    }
}

/** Offers a target (see actshare_request.add_target); -1 under a host older than ABI 3,
    which cannot hear it. */
static inline int32_t actshare_add_target(const actshare_request *request, const actshare_target *target) {
    if (request && target && request->abi_version >= 3
        && request->struct_size >= offsetof(actshare_request, add_target) + sizeof request->add_target && request->add_target) {
        return request->add_target(request, target);
    }
    return -1;
}

/** The id of the target the user chose, or NULL (none chosen, or a host older than ABI 3). */
static inline const char *actshare_request_target(const actshare_request *request) {
    if (request && request->abi_version >= 3
        && request->struct_size >= offsetof(actshare_request, target) + sizeof request->target) {
        return request->target;
    }
    return NULL;
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
