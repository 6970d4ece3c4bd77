#include "share-items.h"

#include "share-error.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* At most this many descriptors in one call (dbus-daemon itself drops a caller that sends
 * more than 16 in one message, unless configured otherwise: docs/DBUS.md). */
#define MAX_ITEM_FDS 256

/* A handle_token: letters, digits and _, as the portals take it; a path element. */
#define MAX_TOKEN_LENGTH 64

/* `path` (absolute) opened for reading as `caller` sees the file system: inside its root
 * and mount namespace (/proc/PID/root), every link resolved there too. Through the plain
 * /proc/PID/root/PATH an absolute link would jump to the service's own root instead, and
 * reach a file the caller's namespace hides. -1 with errno when it cannot. */
static int open_in_callers_root(pid_t caller, const char *path) {
    g_autofree char *root_path = g_strdup_printf("/proc/%d/root", (int)caller);
    int root = open(root_path, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (root < 0) return -1;
    struct open_how how = {
        .flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY,
        .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
    };
    int fd = (int)syscall(SYS_openat2, root, path, &how, sizeof how);
    int saved = errno;
    close(root);
    errno = saved;
    return fd;
}

/* The item `path` for actshare, with the identity of the file the service checked: actshare
 * shares it only while the path still names that file (a path swapped for a link since is
 * refused there, not followed). */
static json_object *path_item(const char *path, const struct stat *checked) {
    json_object *item = json_object_new_object();
    json_object_object_add(item, "path", json_object_new_string(path));
    json_object_object_add(item, "device", json_object_new_int64((int64_t)checked->st_dev));
    json_object_object_add(item, "inode", json_object_new_int64((int64_t)checked->st_ino));
    return item;
}

/* What actshare is given for `uri`, item `index` of `uris`: a file: URI as its path, and
 * only if the caller could open that file itself, as it sees the file system (its root and
 * mount namespace, links resolved there), and the path names the same file here; another
 * URI as it is. A path given without a scheme is refused: it would pass as a file without
 * that check. `checked` is the file's identity. A descriptor needs no such check: the
 * caller opened it (docs/DBUS.md). */
static char *uri_operand(const char *uri, pid_t caller, gsize index, struct stat *checked, GError **error) {
    g_autofree char *scheme = g_uri_parse_scheme(uri);
    if (!scheme) {
        g_set_error(error, SHARE_ERROR, SHARE_ERROR_INVALID_ITEM,
                    "items 'uris'[%" G_GSIZE_FORMAT "] is not a URI; give a file as file:///… or as a descriptor in 'fds'", index);
        return NULL;
    }
    if (g_ascii_strcasecmp(scheme, "file") != 0) return g_strdup(uri);
    g_autofree char *path = g_filename_from_uri(uri, NULL, NULL);
    /* The file as the caller sees it, and the same file here by its real path, through no
     * link, as actshare must find it (it grants a sandbox the path only while it leads
     * through none). realpath's memory is malloc's, which g_free frees. */
    int fd = path && path[0] == '/' ? open_in_callers_root(caller, path) : -1;
    g_autofree char *real = fd >= 0 ? realpath(path, NULL) : NULL;
    struct stat ours;
    gboolean same = real && fstat(fd, checked) == 0 && stat(real, &ours) == 0 && ours.st_dev == checked->st_dev
                    && ours.st_ino == checked->st_ino;
    if (fd >= 0) close(fd);
    if (!same) {
        g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED,
                    "items 'uris'[%" G_GSIZE_FORMAT "]: the caller cannot open %s itself, so it is not shared", index,
                    path ? path : uri);
        return NULL;
    }
    return g_steal_pointer(&real);
}

/* Whether `type` reads as a MIME type, TYPE/SUBTYPE in RFC 2045's token characters. */
static gboolean is_mime_type(const char *type) {
    static const char *const special = "()<>@,;:\\\"/[]?= ";
    int slashes = 0;
    gsize length = 0, part = 0;
    for (const char *c = type; *c; c++, length++) {
        if (*c == '/') {
            if (part == 0) return FALSE;
            slashes++;
            part = 0;
        } else if ((unsigned char)*c <= ' ' || (unsigned char)*c >= 127 || strchr(special, *c)) {
            return FALSE;
        } else {
            part++;
        }
    }
    return slashes == 1 && part > 0 && length <= 255;
}

/* The type of a descriptor's file is found from the file itself, which actshare trusts
 * over a caller's word. */
gboolean share_items_add(GVariant *items, GUnixFDList *fds, pid_t caller, json_object *list, GError **error) {
    GVariantIter iter;
    const char *key;
    GVariant *value;
    int count = 0, descriptors = 0;
    g_autofree char *text = NULL, *mime_type = NULL;
    g_variant_iter_init(&iter, items);
    while (g_variant_iter_next(&iter, "{&sv}", &key, &value)) {
        g_autoptr(GVariant) owned = value;
        if (strcmp(key, "fds") == 0 && g_variant_is_of_type(value, G_VARIANT_TYPE("ah"))) {
            gsize n = g_variant_n_children(value);
            if (n + (gsize)descriptors > MAX_ITEM_FDS) {
                g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS, "at most %d files in one call", MAX_ITEM_FDS);
                return FALSE;
            }
            for (gsize i = 0; i < n; i++) {
                gint32 handle;
                g_variant_get_child(value, i, "h", &handle);
                /* An index into the message's descriptors, checked first: GIO takes a
                 * negative one on trust (and crashes), and complains of one past the end. */
                if (!fds || handle < 0 || handle >= g_unix_fd_list_get_length(fds)) {
                    g_set_error(error, SHARE_ERROR, SHARE_ERROR_INVALID_ITEM,
                                "items 'fds'[%" G_GSIZE_FORMAT "] is %d, which is not one of the %d descriptors sent", i, (int)handle,
                                fds ? g_unix_fd_list_get_length(fds) : 0);
                    return FALSE;
                }
                int fd = g_unix_fd_list_get(fds, handle, NULL);
                struct stat status;
                int mode = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
                /* Opened for reading: the caller could read it (not O_PATH, not write-only). */
                if (fd < 0 || mode < 0 || (mode & O_PATH) || (mode & O_ACCMODE) == O_WRONLY) {
                    if (fd >= 0) close(fd);
                    g_set_error(error, SHARE_ERROR, SHARE_ERROR_INVALID_ITEM,
                                "items 'fds'[%" G_GSIZE_FORMAT "] is not open for reading (open the file with O_RDONLY)", i);
                    return FALSE;
                }
                if (fstat(fd, &status) != 0 || !(S_ISREG(status.st_mode) || S_ISDIR(status.st_mode))) {
                    close(fd);
                    g_set_error(error, SHARE_ERROR, SHARE_ERROR_INVALID_ITEM,
                                "items 'fds'[%" G_GSIZE_FORMAT "] is not an open file or folder", i);
                    return FALSE;
                }
                /* The file's own path: a provider in its helper cannot use a descriptor
                 * number of actshare's. The same file, not another put in its place. */
                char link[64], path[PATH_MAX];
                snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
                ssize_t length = readlink(link, path, sizeof path - 1);
                struct stat named;
                if (length > 0) path[length] = '\0';
                if (length <= 0 || path[0] != '/' || stat(path, &named) != 0 || named.st_dev != status.st_dev
                    || named.st_ino != status.st_ino) {
                    close(fd);
                    g_set_error(error, SHARE_ERROR, SHARE_ERROR_INVALID_ITEM,
                                "items 'fds'[%" G_GSIZE_FORMAT "] has no path (a deleted or memory file), which actshare cannot share", i);
                    return FALSE;
                }
                close(fd);
                descriptors++;
                json_object_array_add(list, path_item(path, &status));
                count++;
            }
        } else if (strcmp(key, "uris") == 0 && g_variant_is_of_type(value, G_VARIANT_TYPE_STRING_ARRAY)) {
            gsize n;
            g_autofree const char **uris = g_variant_get_strv(value, &n);
            for (gsize i = 0; i < n; i++) {
                struct stat checked;
                g_autofree char *operand = uri_operand(uris[i], caller, i, &checked, error);
                if (!operand) return FALSE;
                json_object *item = operand[0] == '/' ? path_item(operand, &checked) : json_object_new_object();
                if (operand[0] != '/') json_object_object_add(item, "url", json_object_new_string(operand));
                json_object_array_add(list, item);
                count++;
            }
        } else if (strcmp(key, "text") == 0 && g_variant_is_of_type(value, G_VARIANT_TYPE_STRING)) {
            g_free(text);
            text = g_variant_dup_string(value, NULL);
            count++;
        } else if (strcmp(key, "mime-type") == 0 && g_variant_is_of_type(value, G_VARIANT_TYPE_STRING)) {
            g_free(mime_type);
            mime_type = g_variant_dup_string(value, NULL);
        } else {
            g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                        "items has '%s' of type %s; the keys are fds (ah), uris (as), text (s) and mime-type (s)", key,
                        g_variant_get_type_string(value));
            return FALSE;
        }
    }
    if (count == 0) {
        g_set_error(error, SHARE_ERROR, SHARE_ERROR_INVALID_ITEM, "no items: give fds, uris or text");
        return FALSE;
    }
    if (mime_type && !is_mime_type(mime_type)) {
        g_set_error(error, SHARE_ERROR, SHARE_ERROR_INVALID_ITEM, "items 'mime-type' is not a MIME type such as text/html");
        return FALSE;
    }
    if (text) {
        json_object *item = json_object_new_object();
        json_object_object_add(item, "text", json_object_new_string(text));
        if (mime_type) json_object_object_add(item, "type", json_object_new_string(mime_type));
        json_object_array_add(list, item);
    }
    return TRUE;
}

/* Whether `token` may name a request: letters, digits and _, as the portals take it. */
static gboolean is_token(const char *token) {
    gsize length = strlen(token);
    if (length == 0 || length > MAX_TOKEN_LENGTH) return FALSE;
    for (const char *c = token; *c; c++) {
        if (!g_ascii_isalnum(*c) && *c != '_') return FALSE;
    }
    return TRUE;
}

/* Flags as `--flag=VALUE`, so that a value starting with `-` is not read as a flag. */
gboolean share_options_add(GVariant *dictionary, GPtrArray *options, json_object *request, char **token, GError **error) {
    GVariantIter iter;
    const char *key;
    GVariant *value;
    g_variant_iter_init(&iter, dictionary);
    while (g_variant_iter_next(&iter, "{&sv}", &key, &value)) {
        g_autoptr(GVariant) owned = value;
        const char *flag = strcmp(key, "activity") == 0 ? "--activity" : strcmp(key, "exclude") == 0 ? "--exclude"
                         : strcmp(key, "only") == 0 ? "--only" : NULL;
        if (flag && g_variant_is_of_type(value, G_VARIANT_TYPE_STRING) && flag[2] == 'a') {
            g_ptr_array_add(options, g_strdup_printf("%s=%s", flag, g_variant_get_string(value, NULL)));
        } else if (flag && g_variant_is_of_type(value, G_VARIANT_TYPE_STRING_ARRAY) && flag[2] != 'a') {
            gsize n;
            g_autofree const char **types = g_variant_get_strv(value, &n);
            for (gsize i = 0; i < n; i++) g_ptr_array_add(options, g_strdup_printf("%s=%s", flag, types[i]));
        } else if (strcmp(key, "subject") == 0 && g_variant_is_of_type(value, G_VARIANT_TYPE_STRING)) {
            json_object_object_add(request, "subject", json_object_new_string(g_variant_get_string(value, NULL)));
        } else if (strcmp(key, "target") == 0 && g_variant_is_of_type(value, G_VARIANT_TYPE_STRING)) {
            /* In the request, not on a command line: a target may be a person's address. */
            if (*g_variant_get_string(value, NULL)) json_object_object_add(request, "target", json_object_new_string(g_variant_get_string(value, NULL)));
        } else if (strcmp(key, "options") == 0 && g_variant_is_of_type(value, G_VARIANT_TYPE("a{ss}"))) {
            GVariantIter pairs;
            const char *name, *setting;
            json_object *values = json_object_new_object();
            g_variant_iter_init(&pairs, value);
            while (g_variant_iter_next(&pairs, "{&s&s}", &name, &setting)) {
                json_object_object_add(values, name, json_object_new_string(setting));
            }
            json_object_object_add(request, "options", values);
        } else if (strcmp(key, "handle_token") == 0 && g_variant_is_of_type(value, G_VARIANT_TYPE_STRING)) {
            if (!is_token(g_variant_get_string(value, NULL))) {
                g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                            "options 'handle_token' is not 1 to %d letters, digits and _", MAX_TOKEN_LENGTH);
                return FALSE;
            }
            g_free(*token);
            *token = g_variant_dup_string(value, NULL);
        } else if (strcmp(key, "parent_window") == 0 && g_variant_is_of_type(value, G_VARIANT_TYPE_STRING)) {
            /* The portals' form, x11:XID or wayland:HANDLE; the window checks it. Empty: none. */
            if (*g_variant_get_string(value, NULL)) {
                g_ptr_array_add(options, g_strdup_printf("--parent-window=%s", g_variant_get_string(value, NULL)));
            }
        } else {
            g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                        "options has '%s' of type %s; the keys are handle_token (s), activity (s), target (s), exclude (as), "
                        "only (as), subject (s), options (a{ss}) and parent_window (s)",
                        key, g_variant_get_type_string(value));
            return FALSE;
        }
    }
    return TRUE;
}

