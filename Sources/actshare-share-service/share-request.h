/*
 * One share under way: an `actshare share --json` run for one caller, exported as an
 * org.actshare.Request1 object until it ends. It ends once: with its Response signal, sent
 * to the caller alone, or without one when the caller closes it or leaves the bus (then
 * actshare is stopped, its window and a dialog it shows with it).
 */
#pragma once

#include <gio/gio.h>

typedef struct _ShareRequest ShareRequest;

/* Called when `request` has ended, whichever way, before it is freed. */
typedef void (*ShareRequestEnded)(ShareRequest *request, gpointer data);

/* Starts `argv` with `input` on its standard input for `sender`, and exports the request
 * at `path`. NULL with `error` set if the path is taken or actshare cannot be run. */
ShareRequest *share_request_start(GDBusConnection *connection, const char *sender, const char *path,
                                  const char *const *argv, const char *input, ShareRequestEnded ended, gpointer data,
                                  GError **error);
