#include "share-request.h"

#include "share-dbus.h"
#include "share-results.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* After SIGTERM (actshare's Cancel), actshare has this long to end before SIGKILL. */
#define STOP_GRACE_SECONDS 5

struct _ShareRequest {
    GDBusConnection *connection;
    char *sender;
    char *path;
    ActShareRequest1 *skeleton;
    GSubprocess *process;
    guint watch;
    guint kill_timer;
    gboolean stopped; /* closed or left: no Response */
    ShareRequestEnded ended;
    gpointer data;
};

static void share_request_free(ShareRequest *request) {
    if (request->watch) g_bus_unwatch_name(request->watch);
    if (request->kill_timer) g_source_remove(request->kill_timer);
    if (request->skeleton && g_dbus_interface_skeleton_get_connection(G_DBUS_INTERFACE_SKELETON(request->skeleton))) {
        g_dbus_interface_skeleton_unexport(G_DBUS_INTERFACE_SKELETON(request->skeleton));
    }
    g_clear_object(&request->skeleton);
    g_clear_object(&request->process);
    g_object_unref(request->connection);
    g_free(request->sender);
    g_free(request->path);
    g_free(request);
}

/* actshare runs in a process group of its own: a signal to it reaches its window too. */
static void signal_group(ShareRequest *request, int number) {
    const char *identifier = g_subprocess_get_identifier(request->process);
    if (identifier) kill(-(pid_t)atoi(identifier), number);
}

static gboolean kill_late(gpointer data) {
    ShareRequest *request = data;
    request->kill_timer = 0;
    signal_group(request, SIGKILL);
    return G_SOURCE_REMOVE;
}

/* Cancels the share: no Response will be sent; the request ends when actshare has. */
static void stop(ShareRequest *request) {
    if (request->stopped) return;
    request->stopped = TRUE;
    g_dbus_interface_skeleton_unexport(G_DBUS_INTERFACE_SKELETON(request->skeleton));
    signal_group(request, SIGTERM);
    request->kill_timer = g_timeout_add_seconds(STOP_GRACE_SECONDS, kill_late, request);
}

static gboolean handle_close(ActShareRequest1 *skeleton, GDBusMethodInvocation *invocation, gpointer data) {
    ShareRequest *request = data;
    if (g_strcmp0(g_dbus_method_invocation_get_sender(invocation), request->sender) != 0) {
        g_dbus_method_invocation_return_error(invocation, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED,
                                              "only the caller that made a request may close it");
        return G_DBUS_METHOD_INVOCATION_HANDLED;
    }
    act_share_request1_complete_close(skeleton, invocation);
    stop(request);
    return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static void caller_vanished(GDBusConnection *connection, const char *name, gpointer data) {
    (void)connection;
    (void)name;
    stop(data);
}

static void finished(GObject *source, GAsyncResult *result, gpointer data) {
    ShareRequest *request = data;
    g_autofree char *out = NULL, *err = NULL;
    g_autoptr(GError) error = NULL;
    gboolean read = g_subprocess_communicate_utf8_finish(G_SUBPROCESS(source), result, &out, &err, &error);
    if (!request->stopped) {
        json_object *root = read && out ? json_tokener_parse(out) : NULL;
        if (root && !json_object_is_type(root, json_type_object)) g_clear_pointer(&root, json_object_put);
        /* No result printed: what actshare said on standard error, its last line. */
        g_autofree char *message = g_strstrip(g_strdup(read ? (err ? err : "") : error->message));
        char *last = strrchr(message, '\n');
        int status = g_subprocess_get_if_exited(request->process) ? g_subprocess_get_exit_status(request->process) : -1;
        ShareResponse response;
        GVariant *results = share_results_new(root, status, last ? last + 1 : message, &response);
        g_dbus_connection_emit_signal(request->connection, request->sender, request->path, "org.actshare.Request1",
                                      "Response", g_variant_new("(u@a{sv})", (guint32)response, results), NULL);
        if (root) json_object_put(root);
    }
    request->ended(request, request->data);
    share_request_free(request);
}

static void own_process_group(gpointer data) {
    (void)data;
    setpgid(0, 0);
}

ShareRequest *share_request_start(GDBusConnection *connection, const char *sender, const char *path,
                                  const char *const *argv, const char *input, ShareRequestEnded ended, gpointer data,
                                  GError **error) {
    ShareRequest *request = g_new0(ShareRequest, 1);
    request->connection = g_object_ref(connection);
    request->sender = g_strdup(sender);
    request->path = g_strdup(path);
    request->ended = ended;
    request->data = data;
    request->skeleton = act_share_request1_skeleton_new();
    g_signal_connect(request->skeleton, "handle-close", G_CALLBACK(handle_close), request);
    if (!g_dbus_interface_skeleton_export(G_DBUS_INTERFACE_SKELETON(request->skeleton), connection, path, error)) {
        g_clear_object(&request->skeleton);
        share_request_free(request);
        return NULL;
    }
    g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new(
        G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE | G_SUBPROCESS_FLAGS_STDIN_PIPE);
    g_subprocess_launcher_set_child_setup(launcher, own_process_group, NULL, NULL);
    request->process = g_subprocess_launcher_spawnv(launcher, argv, error);
    if (!request->process) {
        share_request_free(request);
        return NULL;
    }
    request->watch = g_bus_watch_name_on_connection(connection, sender, G_BUS_NAME_WATCHER_FLAGS_NONE, NULL,
                                                    caller_vanished, request, NULL);
    g_subprocess_communicate_utf8_async(request->process, input, NULL, finished, request);
    return request;
}
