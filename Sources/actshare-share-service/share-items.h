/*
 * From a D-Bus call's dictionaries to what actshare is given: activity types and the parent
 * window as `--flag=VALUE` arguments, and the caller's words (items, subject, option values)
 * in one JSON object for actshare's standard input (`--items-from=0`), never on its command
 * line, which every local user can read.
 */
#pragma once

#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <json.h>

/* Adds the items to `list` (a JSON array): files by their descriptors' paths (from
 * `fds`, the call's descriptors), URIs, text with its `mime-type`. FALSE with `error`
 * set (SHARE_ERROR_INVALID_ITEM, G_DBUS_ERROR_INVALID_ARGS, G_DBUS_ERROR_ACCESS_DENIED)
 * for a bad dictionary or item. `caller` is the caller's process, whose view of the file
 * system a file: URI is checked against. */
gboolean share_items_add(GVariant *items, GUnixFDList *fds, pid_t caller, json_object *list, GError **error);

/* Adds the options: flags to `argv`, the subject and the activity's option values to
 * `request`; the handle_token option to `token` (NULL when not given). FALSE with `error`
 * set for a bad dictionary. */
gboolean share_options_add(GVariant *options, GPtrArray *argv, json_object *request, char **token, GError **error);
