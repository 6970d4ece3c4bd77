/*
 * actshare-share-service ACTSHARE: the session D-Bus service org.actshare.Share
 * (org.actshare.Share1.xml, whose skeletons gdbus-codegen makes; docs/DBUS.md), started by
 * D-Bus activation. It only translates between D-Bus and actshare, which decides
 * everything: a Share call becomes an `ACTSHARE share --json` run, exported as a Request
 * object until its Response (share-request.c); ListActivities an `ACTSHARE list --json` run.
 * Items never travel on actshare's command line (share-items.c).
 *
 * Bad calls get an error that says what is wrong (share-error.h); the service goes on.
 */
#include "share-dbus.h"
#include "share-error.h"
#include "share-items.h"
#include "share-request.h"
#include "share-results.h"

#include <CActShareSystem.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* The interface's version (the `version` property). */
#define SHARE_INTERFACE_VERSION 2

/* Calls under way at once (shares and lists: each is a process, a share a window too), for
 * one connection, for one process (however many connections it opens) and for all: one
 * caller can never take the slots every other caller needs. */
#define MAX_CALLS_PER_CONNECTION 8
#define MAX_CALLS_PER_PROCESS 8
#define MAX_CALLS 64

static const char *actshare;
static GHashTable *calls_by_sender; /* unique name → its calls under way */
static GHashTable *calls_by_pid;    /* process id → its calls under way */
static guint call_count;
static guint next_token;

/* One call's place in the counts above, taken before it starts and given back when it
 * ends. */
typedef struct {
    char *sender;
    pid_t pid;
} CallSlot;

static guint counted(GHashTable *table, gconstpointer key) { return GPOINTER_TO_UINT(g_hash_table_lookup(table, key)); }

/* Adds `change` to `key`'s count; a string key is copied when the table keeps it. */
static void count_by(GHashTable *table, gconstpointer key, gboolean string_key, int change) {
    guint count = counted(table, key) + (guint)change;
    if (count == 0) g_hash_table_remove(table, key);
    else g_hash_table_insert(table, string_key ? g_strdup(key) : (gpointer)key, GUINT_TO_POINTER(count));
}

/* A slot for a call of `sender` (process `pid`), or NULL after answering it with why not. */
static CallSlot *slot_take(GDBusMethodInvocation *invocation, pid_t pid) {
    const char *sender = g_dbus_method_invocation_get_sender(invocation);
    if (counted(calls_by_sender, sender) >= MAX_CALLS_PER_CONNECTION || counted(calls_by_pid, GINT_TO_POINTER(pid)) >= MAX_CALLS_PER_PROCESS
        || call_count >= MAX_CALLS) {
        g_dbus_method_invocation_return_error(invocation, SHARE_ERROR, SHARE_ERROR_FAILED,
                                              "too many shares under way (at most %d for one connection, %d for one process, %d in all)",
                                              MAX_CALLS_PER_CONNECTION, MAX_CALLS_PER_PROCESS, MAX_CALLS);
        return NULL;
    }
    CallSlot *slot = g_new0(CallSlot, 1);
    slot->sender = g_strdup(sender);
    slot->pid = pid;
    count_by(calls_by_sender, slot->sender, TRUE, +1);
    count_by(calls_by_pid, GINT_TO_POINTER(pid), FALSE, +1);
    call_count++;
    return slot;
}

static void slot_release(CallSlot *slot) {
    count_by(calls_by_sender, slot->sender, TRUE, -1);
    count_by(calls_by_pid, GINT_TO_POINTER(slot->pid), FALSE, -1);
    call_count--;
    g_free(slot->sender);
    g_free(slot);
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

/* A sandboxed caller (a provider's helper, a Flatpak app) would have actshare read and
 * write for it what its sandbox forbids: it is refused, whatever it asks. */
static gboolean caller_is_allowed(GDBusMethodInvocation *invocation, pid_t *caller) {
    *caller = caller_pid(g_dbus_method_invocation_get_connection(invocation), g_dbus_method_invocation_get_sender(invocation));
    if (*caller > 0 && !cactshare_process_is_confined(*caller)) return TRUE;
    g_dbus_method_invocation_return_error(
        invocation, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED,
        "actshare does not share for a sandboxed process (pid %d): it would read and write for it what its sandbox forbids",
        (int)*caller);
    return FALSE;
}

/* actshare's arguments for `command`, and the items (with the subject and option values)
 * for its standard input; NULL after answering the call with an error. */
static char *request_for(const char *command, GDBusMethodInvocation *invocation, pid_t caller, GUnixFDList *fds, GVariant *items,
                         GVariant *options, GPtrArray *argv, char **token) {
    g_ptr_array_add(argv, g_strdup(actshare));
    g_ptr_array_add(argv, g_strdup(command));
    g_ptr_array_add(argv, g_strdup("--json"));
    g_autoptr(GError) error = NULL;
    json_object *request = json_object_new_object(), *shared = json_object_new_array();
    json_object_object_add(request, "items", shared);
    if ((options && !share_options_add(options, argv, request, token, &error))
        || !share_items_add(items, fds, caller, shared, &error)) {
        json_object_put(request);
        g_dbus_method_invocation_return_gerror(invocation, error);
        return NULL;
    }
    char *input = g_strdup(json_object_to_json_string_ext(request, JSON_C_TO_STRING_PLAIN));
    json_object_put(request);
    g_ptr_array_add(argv, g_strdup("--items-from=0"));
    g_ptr_array_add(argv, NULL);
    return input;
}

/* /org/actshare/Share/request/SENDER/TOKEN, as xdg-desktop-portal names its requests. */
static char *request_path(const char *sender, const char *token) {
    g_autofree char *element = g_strdup(sender[0] == ':' ? sender + 1 : sender);
    g_strdelimit(element, ".", '_');
    return g_strdup_printf("/org/actshare/Share/request/%s/%s", element, token);
}

static void request_ended(ShareRequest *request, gpointer data) {
    (void)request;
    slot_release(data);
}

static gboolean handle_share(ActShareShare1 *skeleton, GDBusMethodInvocation *invocation, GUnixFDList *fds,
                             GVariant *items, GVariant *options, gpointer data) {
    (void)data;
    const char *sender = g_dbus_method_invocation_get_sender(invocation);
    pid_t caller;
    if (!caller_is_allowed(invocation, &caller)) return G_DBUS_METHOD_INVOCATION_HANDLED;
    CallSlot *slot = slot_take(invocation, caller);
    if (!slot) return G_DBUS_METHOD_INVOCATION_HANDLED;
    g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *token = NULL;
    g_autofree char *input = request_for("share", invocation, caller, fds, items, options, argv, &token);
    if (!input) {
        slot_release(slot);
        return G_DBUS_METHOD_INVOCATION_HANDLED;
    }
    if (!token) token = g_strdup_printf("actshare%u", ++next_token);
    g_autofree char *path = request_path(sender, token);
    g_autoptr(GError) error = NULL;
    ShareRequest *request = share_request_start(g_dbus_method_invocation_get_connection(invocation), sender, path,
                                                (const char *const *)argv->pdata, input, request_ended, slot, &error);
    if (!request) {
        slot_release(slot);
        if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_EXISTS)) {
            g_dbus_method_invocation_return_error(invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                                  "a request with handle_token '%s' is under way", token);
        } else {
            g_dbus_method_invocation_return_error(invocation, SHARE_ERROR, SHARE_ERROR_FAILED, "cannot run actshare: %s",
                                                  error->message);
        }
        return G_DBUS_METHOD_INVOCATION_HANDLED;
    }
    act_share_share1_complete_share(skeleton, invocation, NULL, path);
    return G_DBUS_METHOD_INVOCATION_HANDLED;
}

/* One ListActivities under way. */
typedef struct {
    ActShareShare1 *skeleton;
    GDBusMethodInvocation *invocation;
    CallSlot *slot;
} ListCall;

static void listed(GObject *source, GAsyncResult *result, gpointer data) {
    ListCall *call = data;
    g_autofree char *out = NULL, *err = NULL;
    g_autoptr(GError) error = NULL;
    json_object *root = NULL;
    if (g_subprocess_communicate_utf8_finish(G_SUBPROCESS(source), result, &out, &err, &error) && out) {
        root = json_tokener_parse(out);
    }
    if (root && json_object_is_type(root, json_type_object)) {
        act_share_share1_complete_list_activities(call->skeleton, call->invocation, NULL, share_activities_new(root));
    } else {
        g_dbus_method_invocation_return_error(call->invocation, SHARE_ERROR, SHARE_ERROR_FAILED, "actshare: %s",
                                              error ? error->message : g_strstrip(err ? err : (err = g_strdup(""))));
    }
    if (root) json_object_put(root);
    slot_release(call->slot);
    g_object_unref(call->invocation);
    g_free(call);
}

static gboolean handle_list_activities(ActShareShare1 *skeleton, GDBusMethodInvocation *invocation, GUnixFDList *fds,
                                       GVariant *items, gpointer data) {
    (void)data;
    pid_t caller;
    if (!caller_is_allowed(invocation, &caller)) return G_DBUS_METHOD_INVOCATION_HANDLED;
    CallSlot *slot = slot_take(invocation, caller);
    if (!slot) return G_DBUS_METHOD_INVOCATION_HANDLED;
    g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *input = request_for("list", invocation, caller, fds, items, NULL, argv, NULL);
    if (!input) {
        slot_release(slot);
        return G_DBUS_METHOD_INVOCATION_HANDLED;
    }
    g_autoptr(GError) error = NULL;
    GSubprocess *process = g_subprocess_newv((const char *const *)argv->pdata,
                                             G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE
                                                 | G_SUBPROCESS_FLAGS_STDIN_PIPE,
                                             &error);
    if (!process) {
        slot_release(slot);
        g_dbus_method_invocation_return_error(invocation, SHARE_ERROR, SHARE_ERROR_FAILED, "cannot run actshare: %s",
                                              error->message);
        return G_DBUS_METHOD_INVOCATION_HANDLED;
    }
    ListCall *call = g_new0(ListCall, 1);
    call->skeleton = skeleton;
    call->invocation = g_object_ref(invocation);
    call->slot = slot;
    g_subprocess_communicate_utf8_async(process, input, NULL, listed, call);
    g_object_unref(process);
    return G_DBUS_METHOD_INVOCATION_HANDLED;
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
    calls_by_sender = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    calls_by_pid = g_hash_table_new(g_direct_hash, g_direct_equal);
    g_autoptr(GError) error = NULL;
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
    if (!bus) {
        g_printerr("actshare-share-service: no session bus: %s\n", error->message);
        return 1;
    }
    /* The session is over when its bus goes: so is the service. */
    g_dbus_connection_set_exit_on_close(bus, FALSE);
    g_signal_connect(bus, "closed", G_CALLBACK(bus_closed), NULL);
    ActShareShare1 *share = act_share_share1_skeleton_new();
    act_share_share1_set_version(share, SHARE_INTERFACE_VERSION);
    g_signal_connect(share, "handle-share", G_CALLBACK(handle_share), NULL);
    g_signal_connect(share, "handle-list-activities", G_CALLBACK(handle_list_activities), NULL);
    if (!g_dbus_interface_skeleton_export(G_DBUS_INTERFACE_SKELETON(share), bus, "/org/actshare/Share", &error)) {
        g_printerr("actshare-share-service: %s\n", error->message);
        return 1;
    }
    g_bus_own_name_on_connection(bus, "org.actshare.Share", G_BUS_NAME_OWNER_FLAGS_NONE, NULL, name_lost, NULL, NULL);
    g_main_loop_run(g_main_loop_new(NULL, FALSE));
    return 0;
}
