/*
 * actshare-share-service ACTSHARE: the session D-Bus service org.actshare.Share
 * (interface org.actshare.Share1, org.actshare.Share1.xml; docs/DBUS.md), started by
 * D-Bus activation. Each call runs `ACTSHARE share --json` or `ACTSHARE list --json` for
 * the caller's items and answers with what it printed: actshare decides everything, this
 * only translates between D-Bus and actshare. The items, the subject and the option values
 * go to actshare on its standard input as one JSON object (`--items-from 0`), never on its
 * command line, which every local user can read.
 *
 * Calls are answered asynchronously, so two applications sharing at once each get their
 * own sheet; a caller that leaves the bus cancels its share (SIGTERM, which actshare
 * takes as Cancel). Bad calls get org.freedesktop.DBus.Error.InvalidArgs with a message
 * that says what is wrong; the service goes on.
 */
#include "introspection.h"

#include <CActShareSystem.h>

#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <json.h>

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* At most this many descriptors in one call (dbus-daemon itself drops a caller that sends
 * more than 16 in one message, unless configured otherwise: docs/DBUS.md). */
#define MAX_ITEM_FDS 256

/* The service's own errors for what a caller gives (org.actshare.Share.Error.*). */
#define SHARE_ERROR (share_error_quark())
enum { SHARE_ERROR_INVALID_ITEM, SHARE_ERROR_CANCELLED };
static GQuark share_error_quark(void) {
    static gsize quark = 0;
    static const GDBusErrorEntry entries[] = {
        {SHARE_ERROR_INVALID_ITEM, "org.actshare.Share.Error.InvalidItem"},
        {SHARE_ERROR_CANCELLED, "org.actshare.Share.Error.Cancelled"},
    };
    g_dbus_error_register_error_domain("actshare-share-error", &quark, entries, G_N_ELEMENTS(entries));
    return (GQuark)quark;
}

static const char *actshare;
static GDBusNodeInfo *introspection;

/* One call under way. */
typedef struct call {
    GDBusMethodInvocation *invocation;
    GSubprocess *process;
    guint watch;
    gboolean list; /* ListActivities, not Share */
} call;

static void call_free(call *c) {
    if (c->watch) g_bus_unwatch_name(c->watch);
    g_clear_object(&c->process);
    g_object_unref(c->invocation);
    g_free(c);
}

/* ---- From a D-Bus call to actshare's command line --------------------------------- */

/* What actshare is given for `uri`, item `index` of `uris`: a file: URI as its path, and
 * only if the caller could open that file itself, as it sees the file system (through
 * /proc/PID/root: its mount namespace and root); another URI as it is. A path given
 * without a scheme is refused: it would pass as a file without that check. A descriptor
 * needs no check: the caller opened it (docs/DBUS.md). */
static char *uri_operand(const char *uri, pid_t caller, gsize index, GError **error) {
    g_autofree char *scheme = g_uri_parse_scheme(uri);
    if (!scheme) {
        g_set_error(error, SHARE_ERROR, SHARE_ERROR_INVALID_ITEM,
                    "items 'uris'[%" G_GSIZE_FORMAT "] is not a URI; give a file as file:///… or as a descriptor in 'fds'", index);
        return NULL;
    }
    if (g_ascii_strcasecmp(scheme, "file") != 0) return g_strdup(uri);
    g_autofree char *path = g_filename_from_uri(uri, NULL, NULL);
    struct stat ours, theirs;
    int fd = -1;
    if (path && path[0] == '/') {
        g_autofree char *seen = g_strdup_printf("/proc/%d/root%s", (int)caller, path);
        fd = open(seen, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    }
    gboolean same = fd >= 0 && fstat(fd, &theirs) == 0 && stat(path, &ours) == 0 && ours.st_dev == theirs.st_dev
                    && ours.st_ino == theirs.st_ino;
    if (fd >= 0) close(fd);
    if (!same) {
        g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED,
                    "items 'uris'[%" G_GSIZE_FORMAT "]: the caller cannot open %s itself, so it is not shared", index,
                    path ? path : uri);
        return NULL;
    }
    return g_steal_pointer(&path);
}

/* The caller's process id, as the bus says; 0 if it cannot say. */
static pid_t caller_pid(GDBusConnection *connection, const char *sender) {
    g_autoptr(GVariant) reply = g_dbus_connection_call_sync(
        connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetConnectionUnixProcessID",
        g_variant_new("(s)", sender), G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, 2000, NULL, NULL);
    guint32 pid = 0;
    if (reply) g_variant_get(reply, "(u)", &pid);
    return (pid_t)pid;
}

/* Adds the items to `request`'s `items` (a JSON array): files by their descriptors' paths,
 * URIs, text with its `mime-type` (the type of a descriptor's file is found from the file
 * itself); FALSE with `error` set for a bad dictionary or item. */
static gboolean add_items(GVariant *items, GDBusMessage *message, pid_t caller, json_object *list, GError **error) {
    GVariantIter iter;
    const char *key;
    GVariant *value;
    int count = 0, descriptors = 0;
    g_autofree char *text = NULL, *mime_type = NULL;
    g_variant_iter_init(&iter, items);
    while (g_variant_iter_next(&iter, "{&sv}", &key, &value)) {
        g_autoptr(GVariant) owned = value;
        if (strcmp(key, "fds") == 0 && g_variant_is_of_type(value, G_VARIANT_TYPE("ah"))) {
            GUnixFDList *fds = g_dbus_message_get_unix_fd_list(message);
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
                json_object *item = json_object_new_object();
                json_object_object_add(item, "path", json_object_new_string(path));
                json_object_array_add(list, item);
                count++;
            }
        } else if (strcmp(key, "uris") == 0 && g_variant_is_of_type(value, G_VARIANT_TYPE_STRING_ARRAY)) {
            gsize n;
            g_autofree const char **uris = g_variant_get_strv(value, &n);
            for (gsize i = 0; i < n; i++) {
                g_autofree char *operand = uri_operand(uris[i], caller, i, error);
                if (!operand) return FALSE;
                json_object *item = json_object_new_object();
                json_object_object_add(item, operand[0] == '/' ? "path" : "url", json_object_new_string(operand));
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
    if (text) {
        /* actshare checks the type (a MIME type such as text/html) and says so if not. */
        json_object *item = json_object_new_object();
        json_object_object_add(item, "text", json_object_new_string(text));
        if (mime_type) json_object_object_add(item, "type", json_object_new_string(mime_type));
        json_object_array_add(list, item);
    }
    return TRUE;
}

/* Adds the options: activity types and the parent window to actshare's command line (as
 * `--flag=VALUE`, so that a value starting with `-` is not read as a flag), the subject and
 * the activity's option values, which are the caller's words, to `request`. */
static gboolean add_options(GVariant *dictionary, GPtrArray *options, json_object *request, GError **error) {
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
        } else if (strcmp(key, "options") == 0 && g_variant_is_of_type(value, G_VARIANT_TYPE("a{ss}"))) {
            GVariantIter pairs;
            const char *name, *setting;
            json_object *values = json_object_new_object();
            g_variant_iter_init(&pairs, value);
            while (g_variant_iter_next(&pairs, "{&s&s}", &name, &setting)) {
                json_object_object_add(values, name, json_object_new_string(setting));
            }
            json_object_object_add(request, "options", values);
        } else if (strcmp(key, "parent_window") == 0 && g_variant_is_of_type(value, G_VARIANT_TYPE_STRING)) {
            /* The portals' form, x11:XID or wayland:HANDLE; the window checks it. Empty: none. */
            if (*g_variant_get_string(value, NULL)) {
                g_ptr_array_add(options, g_strdup_printf("--parent-window=%s", g_variant_get_string(value, NULL)));
            }
        } else {
            g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                        "options has '%s' of type %s; the keys are activity (s), exclude (as), only (as), subject (s), "
                        "options (a{ss}) and parent_window (s)",
                        key, g_variant_get_type_string(value));
            return FALSE;
        }
    }
    return TRUE;
}

/* ---- From actshare's JSON to D-Bus ----------------------------------------------- */

static void add_string(GVariantBuilder *builder, json_object *object, const char *key, const char *name) {
    json_object *value;
    if (json_object_object_get_ex(object, key, &value) && json_object_is_type(value, json_type_string)) {
        g_variant_builder_add(builder, "{sv}", name, g_variant_new_string(json_object_get_string(value)));
    }
}

static GVariant *dictionary(json_object *object, const char *const *keys) {
    GVariantBuilder builder;
    g_variant_builder_init(&builder, G_VARIANT_TYPE("a{sv}"));
    for (; *keys; keys++) add_string(&builder, object, *keys, *keys);
    json_object *size;
    if (json_object_object_get_ex(object, "size", &size) && json_object_is_type(size, json_type_int)) {
        g_variant_builder_add(&builder, "{sv}", "size", g_variant_new_uint64((guint64)json_object_get_int64(size)));
    }
    return g_variant_builder_end(&builder);
}

static GVariant *share_result(json_object *root) {
    static const char *const item_keys[] = {"kind", "path", "url", "text", "content_type", NULL};
    GVariantBuilder result, returned;
    g_variant_builder_init(&result, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_init(&returned, G_VARIANT_TYPE("aa{sv}"));
    json_object *value;
    const char *activity = json_object_object_get_ex(root, "activity", &value) && json_object_is_type(value, json_type_string)
                           ? json_object_get_string(value) : "";
    g_variant_builder_add(&result, "{sv}", "activity", g_variant_new_string(activity));
    gboolean completed = json_object_object_get_ex(root, "completed", &value) && json_object_get_boolean(value);
    g_variant_builder_add(&result, "{sv}", "completed", g_variant_new_boolean(completed));
    const char *error = json_object_object_get_ex(root, "error", &value) && json_object_is_type(value, json_type_string)
                        ? json_object_get_string(value) : "";
    g_variant_builder_add(&result, "{sv}", "error", g_variant_new_string(error));
    if (json_object_object_get_ex(root, "returned_items", &value) && json_object_is_type(value, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(value); i++) {
            g_variant_builder_add_value(&returned, dictionary(json_object_array_get_idx(value, i), item_keys));
        }
    }
    g_variant_builder_add(&result, "{sv}", "returned_items", g_variant_builder_end(&returned));
    return g_variant_new("(@a{sv})", g_variant_builder_end(&result));
}

static GVariant *list_result(json_object *root) {
    static const char *const activity_keys[] = {"type", "title", "image", "category", "provider", NULL};
    GVariantBuilder activities;
    g_variant_builder_init(&activities, G_VARIANT_TYPE("aa{sv}"));
    json_object *value;
    if (json_object_object_get_ex(root, "activities", &value) && json_object_is_type(value, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(value); i++) {
            g_variant_builder_add_value(&activities, dictionary(json_object_array_get_idx(value, i), activity_keys));
        }
    }
    return g_variant_new("(@aa{sv})", g_variant_builder_end(&activities));
}

/* Whether a share's result is a cancel: not completed, and no error. */
static gboolean is_cancelled(json_object *root) {
    json_object *value;
    gboolean completed = json_object_object_get_ex(root, "completed", &value) && json_object_get_boolean(value);
    gboolean failed = json_object_object_get_ex(root, "error", &value) && json_object_is_type(value, json_type_string)
                      && *json_object_get_string(value);
    return !completed && !failed;
}

static void finished(GObject *source, GAsyncResult *result, gpointer data) {
    call *c = data;
    g_autofree char *out = NULL, *err = NULL;
    g_autoptr(GError) error = NULL;
    if (!g_subprocess_communicate_utf8_finish(G_SUBPROCESS(source), result, &out, &err, &error)) {
        g_dbus_method_invocation_return_error(c->invocation, G_DBUS_ERROR, G_DBUS_ERROR_FAILED, "actshare: %s", error->message);
        call_free(c);
        return;
    }
    json_object *root = out ? json_tokener_parse(out) : NULL;
    if (!root || !json_object_is_type(root, json_type_object)) {
        /* No result printed: a usage error, said on standard error. */
        g_strstrip(err ? err : (err = g_strdup("")));
        g_dbus_method_invocation_return_error(c->invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS, "%s",
                                              *err ? err : "actshare printed no result");
    } else if (!c->list && is_cancelled(root)) {
        /* The user's cancel, told apart from a failure (which always says what failed). */
        g_dbus_method_invocation_return_error(c->invocation, SHARE_ERROR, SHARE_ERROR_CANCELLED, "the user cancelled the share");
    } else {
        g_dbus_method_invocation_return_value(c->invocation, c->list ? list_result(root) : share_result(root));
    }
    if (root) json_object_put(root);
    call_free(c);
}

/* The caller left the bus: its share is cancelled. actshare runs in a process group of
 * its own, so its window (and a dialog it shows) go with it. */
static void caller_vanished(GDBusConnection *connection, const char *name, gpointer data) {
    (void)connection;
    (void)name;
    call *c = data;
    const char *identifier = c->process ? g_subprocess_get_identifier(c->process) : NULL;
    if (identifier) kill(-(pid_t)atoi(identifier), SIGTERM);
}

static void own_process_group(gpointer data) {
    (void)data;
    setpgid(0, 0);
}

static void method_call(GDBusConnection *connection, const char *sender, const char *path, const char *interface,
                        const char *method, GVariant *parameters, GDBusMethodInvocation *invocation, gpointer data) {
    (void)path;
    (void)interface;
    (void)data;
    gboolean list = strcmp(method, "ListActivities") == 0;
    g_autoptr(GVariant) items = g_variant_get_child_value(parameters, 0);
    g_autoptr(GVariant) options_value =
        list ? g_variant_ref_sink(g_variant_new("a{sv}", NULL)) : g_variant_get_child_value(parameters, 1);
    g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(argv, g_strdup(actshare));
    g_ptr_array_add(argv, g_strdup(list ? "list" : "share"));
    g_ptr_array_add(argv, g_strdup("--json"));
    g_autoptr(GError) error = NULL;
    /* A sandboxed caller (a provider's helper, a Flatpak app) would have actshare read
     * and write for it what its sandbox forbids: it is refused, whatever it asks. */
    pid_t caller = caller_pid(connection, sender);
    if (caller <= 0 || cactshare_process_is_confined(caller)) {
        g_dbus_method_invocation_return_error(
            invocation, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED,
            "actshare does not share for a sandboxed process (pid %d): it would read and write for it what its sandbox forbids",
            (int)caller);
        return;
    }
    /* The items, the subject and the option values: on actshare's standard input. */
    json_object *request = json_object_new_object(), *shared = json_object_new_array();
    json_object_object_add(request, "items", shared);
    if (!add_options(options_value, argv, request, &error)
        || !add_items(items, g_dbus_method_invocation_get_message(invocation), caller, shared, &error)) {
        json_object_put(request);
        g_dbus_method_invocation_return_gerror(invocation, error);
        return;
    }
    char *input = g_strdup(json_object_to_json_string_ext(request, JSON_C_TO_STRING_PLAIN));
    json_object_put(request);
    g_ptr_array_add(argv, g_strdup("--items-from=0"));
    g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new(
        G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE | G_SUBPROCESS_FLAGS_STDIN_PIPE);
    g_subprocess_launcher_set_child_setup(launcher, own_process_group, NULL, NULL);
    g_ptr_array_add(argv, NULL);
    call *c = g_new0(call, 1);
    c->invocation = g_object_ref(invocation);
    c->list = list;
    c->process = g_subprocess_launcher_spawnv(launcher, (const char *const *)argv->pdata, &error);
    if (!c->process) {
        g_dbus_method_invocation_return_error(invocation, G_DBUS_ERROR, G_DBUS_ERROR_FAILED, "cannot run %s: %s", actshare,
                                              error->message);
        g_free(input);
        call_free(c);
        return;
    }
    c->watch = g_bus_watch_name_on_connection(connection, sender, G_BUS_NAME_WATCHER_FLAGS_NONE, NULL, caller_vanished, c, NULL);
    g_subprocess_communicate_utf8_async(c->process, input, NULL, finished, c);
    g_free(input);
}

static const GDBusInterfaceVTable vtable = {method_call, NULL, NULL, {0}};

static void bus_acquired(GDBusConnection *connection, const char *name, gpointer data) {
    (void)name;
    (void)data;
    g_autoptr(GError) error = NULL;
    if (!g_dbus_connection_register_object(connection, "/org/actshare/Share", introspection->interfaces[0], &vtable, NULL,
                                           NULL, &error)) {
        g_printerr("actshare-share-service: %s\n", error->message);
        exit(1);
    }
}

static void bus_closed(GDBusConnection *connection, gboolean remote, GError *error, gpointer data) {
    (void)connection;
    (void)remote;
    (void)error;
    (void)data;
    exit(0);
}

static void name_lost(GDBusConnection *connection, const char *name, gpointer data) {
    (void)data;
    /* Without a connection, the bus has gone (the session ended): nothing to say. */
    if (!connection) exit(0);
    g_printerr("actshare-share-service: cannot own %s on the session bus (is another running?)\n", name);
    exit(1);
}

int main(int argc, char **argv) {
    if (argc != 2 || argv[1][0] != '/') {
        g_printerr("usage: actshare-share-service /path/to/actshare   (started by D-Bus activation)\n");
        return 64;
    }
    actshare = argv[1];
    signal(SIGPIPE, SIG_IGN);
    introspection = g_dbus_node_info_new_for_xml(introspection_xml, NULL);
    g_autoptr(GError) error = NULL;
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
    if (!bus) {
        g_printerr("actshare-share-service: no session bus: %s\n", error->message);
        return 1;
    }
    /* The session is over when its bus goes: so is the service. */
    g_dbus_connection_set_exit_on_close(bus, FALSE);
    g_signal_connect(bus, "closed", G_CALLBACK(bus_closed), NULL);
    bus_acquired(bus, NULL, NULL);
    g_bus_own_name_on_connection(bus, "org.actshare.Share", G_BUS_NAME_OWNER_FLAGS_NONE, NULL, name_lost, NULL, NULL);
    g_main_loop_run(g_main_loop_new(NULL, FALSE));
    return 0;
}
